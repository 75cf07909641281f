/**
 * Agent-sized load: Claude Code's recorded ~90 KB `/v1/messages` request sent many times at once through the
 * model tap, a streamed (SSE) answer upstream. Every exchange answered is stored: when the recording thread
 * falls behind, the taps stop reading new requests until it catches up (backpressure) rather than forward
 * what they cannot record. Counts, never timings.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import type { Health } from "@hopscope/shared/trace/api";
import type { QueueLimits } from "../src/link/protocol";
import { getJson, request, startRecorder, startUpstream, type TestRecorder, type Upstream } from "./helpers";

const FIXTURE = fileURLToPath(new URL("../../../tests/fixtures/agents/claude-code/model-04.json", import.meta.url));
const recorded = JSON.parse(readFileSync(FIXTURE, "utf8")) as {
  path: string;
  headers: Record<string, string>;
  requestBody: string;
};
const HEADERS = Object.fromEntries(
  Object.entries(recorded.headers).filter(([k]) => !["host", "content-length", "connection"].includes(k)),
);
const ANSWER = [
  { type: "message_start", message: { id: "msg_1", type: "message", role: "assistant", content: [] } },
  { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } },
  { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: 'I added "buy milk".' } },
  { type: "content_block_stop", index: 0 },
  { type: "message_delta", delta: { stop_reason: "end_turn" }, usage: { output_tokens: 6 } },
  { type: "message_stop" },
]
  .map((e) => `event: ${e.type}\ndata: ${JSON.stringify(e)}\n\n`)
  .join("");

let up: Upstream | undefined;
let rec: TestRecorder | undefined;
afterEach(async () => {
  await rec?.close();
  await up?.close();
  rec = undefined;
  up = undefined;
});

async function sseUpstream(): Promise<Upstream> {
  return startUpstream((_req, res) => {
    res.writeHead(200, { "content-type": "text/event-stream" });
    res.end(ANSWER);
  });
}

/** `total` requests, `concurrent` at a time (each worker sends its next when its last is answered). */
async function sendAgentLoad(r: TestRecorder, total: number, concurrent: number): Promise<number> {
  let sent = 0;
  let answered = 0;
  const worker = async () => {
    while (sent < total) {
      sent++;
      const res = await request(`${r.taps.model.url}${recorded.path}`, {
        method: "POST",
        headers: HEADERS,
        body: recorded.requestBody,
      });
      expect(res.status).toBe(200);
      expect(res.body.toString()).toBe(ANSWER);
      answered++;
    }
  };
  await Promise.all(Array.from({ length: concurrent }, worker));
  return answered;
}

/** Complete exchanges stored, read after every exchange sent before is committed (the API waits for that). */
async function storedComplete(r: TestRecorder): Promise<number> {
  const list = await getJson<{ traces: { id: string }[] }>(`${r.url}/api/traces?limit=500`);
  let n = 0;
  for (const t of list.body.traces) {
    const trace = await getJson<{ exchanges: { state: string }[] }>(`${r.url}/api/traces/${t.id}`);
    n += trace.body.exchanges.filter((e) => e.state === "complete").length;
  }
  return n;
}

async function start(queueLimits: QueueLimits): Promise<TestRecorder> {
  up = await sseUpstream();
  rec = await startRecorder({ model: up.url }, {}, { deps: { queueLimits } });
  return rec;
}

describe("an agent-sized load through the model tap", () => {
  it("stores every exchange it answered, and health says ok", async () => {
    // A queue of 4 MiB (some forty of these requests): the recording thread cannot keep up with the taps,
    // so without backpressure many would be forwarded unrecorded.
    const r = await start({ events: 250_000, bytes: 4 * 1024 * 1024 });
    const answered = await sendAgentLoad(r, 240, 16);
    expect(answered).toBe(240);
    expect(await storedComplete(r)).toBe(240);
    const health = (await getJson<Health>(`${r.url}/api/health`)).body;
    expect(health.storage?.notStored).toBe(0);
    expect(health.ok).toBe(true);
  });

  it("holds the taps while the recording thread is behind: with a tiny high-water mark every request is still answered and stored", async () => {
    // The gate closes after every batch sent: each connection waits for its events to be handled before
    // reading on, so a queue capped at 2 MiB (some twenty of these requests) is never passed.
    const r = await start({ events: 250_000, bytes: 2 * 1024 * 1024, pauseAt: { events: 1, bytes: 1 } });
    const answered = await sendAgentLoad(r, 120, 16);
    expect(answered).toBe(120);
    expect(await storedComplete(r)).toBe(120);
    const health = (await getJson<Health>(`${r.url}/api/health`)).body;
    expect(health.storage?.held).toBeGreaterThan(0);
    expect(health.storage?.notStored).toBe(0);
    expect(health.ok).toBe(true);
  });
});
