/**
 * An SDK server that answers with SSE (text/event-stream) and keeps legacy sessions, through the MCP tap:
 * the session is one trace (by its Mcp-Session-Id), each SSE answer is read event by event with the
 * JSON-RPC message it carries, and the exports keep the stream's bytes.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { mcpSseEvents } from "@hopscope/shared/trace/mcp-sse";
import { TraceListSchema } from "@hopscope/shared/trace/api";
import { parseTraceBundle } from "@hopscope/shared/trace/bundle";
import { ExchangeSchema, TraceSchema, type Trace } from "@hopscope/shared/trace/schemas";
import { closeAll, startRecorder, type TestRecorder } from "./support/recorder";
import { startSdkSseServer } from "./support/sdk-sse-server";

let recorder: TestRecorder;
let upstream: Awaited<ReturnType<typeof startSdkSseServer>>;

beforeAll(async () => {
  upstream = await startSdkSseServer();
  recorder = await startRecorder({ mcp: upstream.url });
});
afterAll(() => closeAll(recorder, upstream));

async function onlyTrace(count: number): Promise<Trace> {
  for (let i = 0; i < 200; i++) {
    const list = TraceListSchema.parse(await (await fetch(`${recorder.url}/api/traces`)).json());
    if (list.traces.length === 1) {
      const t = TraceSchema.parse(await (await fetch(`${recorder.url}/api/traces/${list.traces[0]!.id}`)).json());
      if (t.exchanges.length >= count && t.exchanges.every((e) => e.state === "complete")) return t;
    }
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error("no single complete trace");
}

it("records an SSE-answering SDK server's session as one trace, its answers event by event, kept whole in the exports", async () => {
  const client = new Client({ name: "sse-client", version: "1.0.0" });
  const transport = new StreamableHTTPClientTransport(new URL(`${recorder.taps.mcp.url}/mcp`));
  await client.connect(transport);
  expect(transport.sessionId).toMatch(/^[0-9a-f-]{36}$/);
  await client.listTools();
  expect(await client.callTool({ name: "slow_append", arguments: { content: "buy milk" } })).toMatchObject({
    content: [{ text: "Appended: buy milk" }],
  });
  await transport.terminateSession();
  await client.close();

  const trace = await onlyTrace(5);
  expect(trace).toMatchObject({ groupedBy: "session", name: "MCP session: tools/call slow_append" });
  const call = trace.exchanges.find(
    (e) => e.classification.kind === "mcp" && e.classification.method === "tools/call",
  )!;
  expect(call.classification).toMatchObject({ outcome: "ok", resultText: "Appended: buy milk" });
  const full = ExchangeSchema.parse(await (await fetch(`${recorder.url}/api/exchanges/${call.id}`)).json());
  expect(full.responseBody?.contentType).toMatch(/text\/event-stream/);
  const events = mcpSseEvents(full.responseBody!.data);
  expect(events.map((e) => [e.kind, e.label])).toEqual([
    ["notification", "notifications/progress"],
    ["response", `id ${JSON.stringify((JSON.parse(full.requestBody!.data) as { id: number }).id)}`],
  ]);

  const hopscope = parseTraceBundle(
    await (await fetch(`${recorder.url}/api/traces/${trace.id}/export?format=hopscope`)).json(),
  );
  expect(hopscope.exchanges.find((e) => e.id === call.id)?.responseBody?.data).toBe(full.responseBody!.data);
  const har = (await (await fetch(`${recorder.url}/api/traces/${trace.id}/export?format=har`)).json()) as {
    log: { entries: { response: { content: { text?: string; mimeType: string } } }[] };
  };
  expect(har.log.entries.map((e) => e.response.content.text)).toContain(full.responseBody!.data);
});
