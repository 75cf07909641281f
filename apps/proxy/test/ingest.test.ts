/**
 * `POST /api/ingest/stdio` (what `hopscope wrap` sends): guarded like the rest of /api, strict about its
 * body, and what it takes shows up as one live MCP session on the feed and in the store.
 */
import { afterEach, describe, expect, it } from "vitest";
import type { StdioBatch } from "@hopscope/shared/trace/stdio-ingest";
import { FeedClient, request, startRecorder, traces, eventually, type TestRecorder } from "./helpers";

let rec: TestRecorder | null = null;
afterEach(() => rec?.close());

const frame = (message: unknown) => {
  const data = JSON.stringify(message);
  return { encoding: "utf8" as const, data, size: Buffer.byteLength(data) };
};
const t0 = 1_700_000_000_000;
const batch: StdioBatch = {
  session: { id: "session-0001", command: "node notes.js" },
  events: [
    {
      type: "request",
      key: "stdin:1",
      stream: "stdin",
      at: t0,
      frame: frame({
        jsonrpc: "2.0",
        id: 1,
        method: "tools/call",
        params: { name: "append", arguments: { content: "x" } },
      }),
    },
    { type: "line", stream: "stderr", at: t0 + 1, frame: { encoding: "utf8", data: "working", size: 7 } },
    {
      type: "answered",
      key: "stdin:1",
      stream: "stdin",
      at: t0,
      request: frame({
        jsonrpc: "2.0",
        id: 1,
        method: "tools/call",
        params: { name: "append", arguments: { content: "x" } },
      }),
      answer: frame({ jsonrpc: "2.0", id: 1, result: { content: [{ type: "text", text: "Success" }] } }),
      answerAt: t0 + 12.5,
    },
    { type: "exit", at: t0 + 20, code: 0, signal: null },
  ],
};

const post = (body: string, headers: Record<string, string> = {}) =>
  request(`${rec!.url}/api/ingest/stdio`, {
    method: "POST",
    body,
    headers: { "content-type": "application/json", ...headers },
  });

describe("POST /api/ingest/stdio", () => {
  it("records a wrapped session as one trace with the wrapper's times, announced live", async () => {
    rec = await startRecorder({});
    const feed = new FeedClient(rec.wsUrl);
    // Frames after the snapshot are the ones this client is sent.
    await feed.until((f) => f.some((x) => x.type === "snapshot"), "the snapshot");
    const res = await post(JSON.stringify(batch));
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body.toString())).toEqual({ recorded: 4 });
    const [trace] = await eventually(
      async () => {
        const t = await traces(rec!);
        return t.length === 1 && t[0]!.exchanges.length === 3 ? t : null;
      },
      "the stdio trace",
      1000,
    );
    expect(trace).toMatchObject({ name: "MCP session: tools/call append", groupedBy: "session" });
    const call = trace!.exchanges[0]!;
    expect(call).toMatchObject({
      method: "STDIO",
      url: "stdin",
      upstream: "stdio: node notes.js",
      state: "complete",
      timings: { start: t0, end: t0 + 12.5 },
    });
    expect(call.classification).toMatchObject({
      kind: "mcp",
      method: "tools/call",
      toolName: "append",
      outcome: "ok",
      resultText: "Success",
    });
    expect(trace!.exchanges.map((e) => e.url)).toEqual(["stdin", "stderr", "exit"]);
    await feed.until((f) => f.filter((x) => x.type === "exchange.completed").length === 3, "three completed exchanges");
    const types = feed.frames.map((f) => f.type).filter((t) => t.startsWith("exchange."));
    expect(types).toEqual([
      "exchange.started",
      "exchange.started",
      "exchange.completed",
      "exchange.completed",
      "exchange.started",
      "exchange.completed",
    ]);
    feed.close();
    for (const format of ["hopscope", "har", "otlp", "mermaid"]) {
      const out = await request(`${rec.url}/api/traces/${trace!.id}/export?format=${format}`);
      expect(out.status, `${format}: ${out.body.toString().slice(0, 300)}`).toBe(200);
      if (format !== "mermaid")
        expect(out.body.toString(), format).toContain(format === "otlp" ? "tools/call" : "Success");
      if (format === "hopscope" || format === "har") {
        const back = await request(`${rec.url}/api/import`, {
          method: "POST",
          body: out.body,
          headers: { "content-type": "application/json" },
        });
        expect(back.status, `${format} import: ${back.body.toString().slice(0, 300)}`).toBe(200);
        const imported = (await traces(rec)).find(
          (t) => t.id === (JSON.parse(back.body.toString()) as { id: string }).id,
        )!;
        expect(
          imported.exchanges.map((e) => [e.tap, e.method, e.url]),
          format,
        ).toEqual([
          ["mcp", "STDIO", "stdin"],
          ["mcp", "STDIO", "stderr"],
          ["mcp", "STDIO", "exit"],
        ]);
      }
    }
  });

  it("refuses a foreign Origin, a non-loopback Host, a wrong Content-Type, deep JSON and a bad batch", async () => {
    rec = await startRecorder({});
    const body = JSON.stringify(batch);
    expect((await post(body, { origin: "https://evil.example" })).status).toBe(403);
    expect((await post(body, { host: "evil.example" })).status).toBe(403);
    const plain = await request(`${rec.url}/api/ingest/stdio`, {
      method: "POST",
      body,
      headers: { "content-type": "text/plain" },
    });
    expect(plain.status).toBe(415);
    expect(JSON.parse(plain.body.toString()).error).toMatch(/Content-Type: application\/json/);
    expect((await post("[".repeat(100) + "]".repeat(100))).status).toBe(400);
    const bad = await post(JSON.stringify({ session: { id: "x", command: "c" }, events: [] }));
    expect(bad.status).toBe(400);
    expect(JSON.parse(bad.body.toString()).error).toMatch(/session\.id: a session id of 8 to 64/);
    expect(await traces(rec)).toEqual([]);
  });
});
