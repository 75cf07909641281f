/**
 * Recording under a burst: the fast path (batched writes, lazily built live frames) must not lose or
 * alter anything. Every one of N concurrent requests is stored with its bodies byte for byte, and a live
 * client resuming from the start gets every frame of the burst, built from what was true when it happened.
 */
import { afterEach, describe, expect, it } from "vitest";
import { ExchangeSchema, TraceSummarySchema } from "@hopscope/shared/trace/schemas";
import {
  FeedClient,
  closeAll,
  getJson,
  request,
  startRecorder,
  startUpstream,
  type TestRecorder,
  type Upstream,
} from "./helpers";

let rec: TestRecorder | null = null;
let up: Upstream | null = null;
afterEach(() => closeAll(rec, up));

/** More than one size-triggered batch (256) plus a remainder left for the interval flush. */
const N = 300;

const call = (i: number) =>
  JSON.stringify({
    jsonrpc: "2.0",
    id: i,
    method: "tools/call",
    params: { name: "append", arguments: { content: `item ${i} é` } },
  });
const reply = (body: Buffer) => {
  const { id } = JSON.parse(body.toString()) as { id: number };
  return JSON.stringify({ jsonrpc: "2.0", id, result: { content: [{ type: "text", text: `appended ${id}` }] } });
};

async function allTraces(r: TestRecorder) {
  const out = [];
  let cursor: string | null = null;
  do {
    const page: { body: { traces: unknown[]; nextCursor: string | null } } = await getJson(
      `${r.url}/api/traces?limit=500${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`,
    );
    out.push(...page.body.traces.map((t) => TraceSummarySchema.parse(t)));
    cursor = page.body.nextCursor;
  } while (cursor);
  return out;
}

describe("a burst of concurrent requests", () => {
  it("records every exchange, bodies byte-identical, and replays every frame to a resuming client", async () => {
    up = await startUpstream((_req, res, body) => {
      res.writeHead(200, { "Content-Type": "application/json" });
      res.end(reply(body));
    });
    rec = await startRecorder({ mcp: up.url }, { flushIntervalMs: 200 });
    const tap = rec.taps.mcp.url;
    const answers = await Promise.all(
      Array.from({ length: N }, (_, i) =>
        request(`${tap}/mcp`, { method: "POST", headers: { "content-type": "application/json" }, body: call(i) }),
      ),
    );
    answers.forEach((a, i) => expect(a.body.toString()).toBe(reply(Buffer.from(call(i)))));

    const traces = await allTraces(rec);
    expect(traces.reduce((n, t) => n + t.exchangeCount, 0)).toBe(N);
    const firstTrace = await getJson<{ exchanges: { id: number }[] }>(`${rec.url}/api/traces/${traces[0]!.id}`);
    const ids = firstTrace.body.exchanges.map((e) => e.id);
    const ex = ExchangeSchema.parse((await getJson(`${rec.url}/api/exchanges/${ids[0]}`)).body);
    const sent = JSON.parse(ex.requestBody!.data) as { id: number };
    expect(ex.requestBody!.data).toBe(call(sent.id));
    expect(ex.responseBody!.data).toBe(reply(Buffer.from(call(sent.id))));
    expect(ex.classification).toMatchObject({ kind: "mcp", method: "tools/call", toolName: "append" });

    // Nobody was watching during the burst, so its frames were kept unbuilt; a client resuming from 0 gets them.
    const feed = new FeedClient(rec.wsUrl);
    try {
      await feed.opened();
      await feed.until((fs) => fs.some((f) => f.type === "snapshot"), "the snapshot");
      feed.ws.send(JSON.stringify({ type: "resume", since: 0 }));
      await feed.until(
        (fs) => fs.filter((f) => f.type === "exchange.completed").length === N,
        `${N} exchange.completed frames`,
      );
      // trace.updated is announced when the writer thread reports its commit, which can come after the API read
      // above (that read waits for the commit itself, not for the report): wait for every trace's frame.
      const updatedIds = (fs: typeof feed.frames) =>
        new Set(fs.flatMap((f) => (f.type === "trace.updated" ? [f.trace.id] : [])));
      await feed.until((fs) => updatedIds(fs).size === traces.length, `trace.updated for all ${traces.length} traces`);
      const numbered = feed.frames.filter((f) => f.type !== "snapshot");
      expect(numbered.map((f) => f.seq)).toEqual(numbered.map((_, i) => i + 1));
      const started = numbered.filter((f) => f.type === "exchange.started");
      expect(started).toHaveLength(N);
      for (const f of started) {
        if (f.type !== "exchange.started") continue;
        // As it was when announced: request complete, no response yet.
        expect(f.exchange.state).toBe("pending");
        expect(f.exchange.timings.end).toBeNull();
        expect(f.exchange.classification).toMatchObject({ kind: "mcp", method: "tools/call" });
      }
      const chunks = numbered.filter((f) => f.type === "exchange.chunk");
      const completed = numbered.flatMap((f) => (f.type === "exchange.completed" ? [f.exchange] : []));
      expect(chunks.length).toBeGreaterThanOrEqual(N);
      expect(chunks).toHaveLength(completed.reduce((n, e) => n + e.chunkCount, 0));
      for (const f of chunks) if (f.type === "exchange.chunk") expect(f.text).toMatch(/"result"/);
      expect(updatedIds(numbered).size).toBe(traces.length);
    } finally {
      feed.close();
    }
  });
});
