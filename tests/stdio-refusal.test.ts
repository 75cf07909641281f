/**
 * A stdio session's recording survives one message the recorder cannot take: the wrapper splits a refused
 * batch until that message stands alone, records it as "not recordable" with the recorder's reason, and
 * records everything after it. Legal messages the recorder once refused are recorded whole: a 300-character
 * string id, an id reused while still outstanding (both requests, answers in order), and a command line far
 * over 2,000 characters.
 */
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TraceListSchema } from "@hopscope/shared/trace/api";
import { TraceSchema, type Trace } from "@hopscope/shared/trace/schemas";
import { isStdioExchange } from "@hopscope/shared/trace/stdio-ingest";
import { StdioHost, TSX, wrapped, type JsonRpcLine } from "./support/stdio-host";
import { startRecorder, type TestRecorder } from "./support/recorder";

const NOTES = [
  process.execPath,
  "--import",
  TSX,
  fileURLToPath(new URL("../apps/mcp-server/src/stdio-main.ts", import.meta.url)),
];
/** Bodies kept per exchange: small, so that the recorder refuses a batch with a 512 KiB frame (413). */
const MAX_BODY_BYTES = 16 * 1024;

let dir: string;
let recorder: TestRecorder;
beforeAll(async () => {
  recorder = await startRecorder({}, { maxBodyBytes: MAX_BODY_BYTES });
  dir = recorder.dir;
});
afterAll(() => recorder?.close());

async function traceWith(marker: string, count: number): Promise<Trace> {
  let seen: Trace | undefined;
  for (let i = 0; i < 400; i++) {
    const list = TraceListSchema.parse(await (await fetch(`${recorder.url}/api/traces?limit=100`)).json());
    for (const t of list.traces) {
      const trace = TraceSchema.parse(await (await fetch(`${recorder.url}/api/traces/${t.id}`)).json());
      if (trace.exchanges.some((e) => isStdioExchange(e) && e.upstream.includes(marker))) seen = trace;
    }
    if (seen && seen.exchanges.length >= count && seen.exchanges.every((e) => e.state !== "pending")) return seen;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`no complete stdio trace with ${count} exchanges; saw ${seen?.exchanges.length ?? 0}`);
}

const ping = (id: string | number, params: object = {}): JsonRpcLine => ({
  jsonrpc: "2.0",
  id,
  method: "ping",
  params,
});

describe("a stdio session the recorder refuses part of", () => {
  it("records the refused message as not recordable, and everything before and after it", async () => {
    const marker = `long-arg-${"x".repeat(3000)}`;
    const host = new StdioHost(wrapped([...NOTES, marker]), {
      HOPSCOPE_URL: recorder.url,
      NOTES_FILE: path.join(dir, "notes"),
    });
    const longId = `id-${"i".repeat(297)}`;
    await host.converse([ping(longId)]);
    await host.converse([ping("huge", { _meta: { blob: "b".repeat(512 * 1024) } })]);
    // Two requests with one id, both asked before either answer can arrive.
    host.send(ping("twice"));
    host.send(ping("twice"));
    await host.waitFor({ text: '"id":"twice"' });
    for (let id = 0; id < 100; id++) await host.converse([ping(id)]);
    await host.close();

    const trace = await traceWith(marker, 104);
    const stdin = trace.exchanges.filter((e) => e.url === "stdin").sort((a, b) => a.seq - b.seq);
    const ids = stdin.map((e) => (e.classification.kind === "mcp" ? e.classification.jsonrpcId : null));
    expect(ids[0]).toBe(longId);
    expect(ids.filter((id) => id === "twice")).toHaveLength(2);
    expect(ids.filter((id) => typeof id === "number")).toEqual([...Array(100).keys()]);
    expect(stdin.filter((e) => e.state === "complete")).toHaveLength(103);
    const refused = trace.exchanges.find((e) => e.error?.startsWith("not recordable"));
    expect(refused?.error).toMatch(/the recorder refused this message \(.*413/);
    const body = (await (await fetch(`${recorder.url}/api/exchanges/${refused?.id}`)).json()) as {
      requestBody: { data: string } | null;
    };
    expect(body.requestBody?.data).toContain('"id":"huge"');
    expect(trace.exchanges.find((e) => e.url === "exit")?.state).toBe("complete");
    expect(trace.exchanges.find((e) => e.url === "exit")?.upstream).toContain(marker);
  });
});
