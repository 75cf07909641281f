/**
 * Grouping through the taps for traffic without a traceparent header (a foreign host or a bare client):
 * the conversation fallback, the tools/call that follows a model's tool call, and MCP `_meta.traceparent`.
 */
import { afterEach, describe, expect, it } from "vitest";
import { request, startRecorder, startUpstream, traces, eventually, type TestRecorder, type Upstream } from "./helpers";

let rec: TestRecorder | null = null;
const ups: Upstream[] = [];
afterEach(async () => {
  await rec?.dispose();
  for (const u of ups.splice(0)) await u.close();
  rec = null;
});

const sys = { role: "system", content: "You take notes." };
const user = { role: "user", content: "Add buy milk to my notes" };
const call = { function: { name: "append", arguments: { content: "buy milk" } } };

async function stack() {
  const model = await startUpstream((_req, res, body) => {
    const { messages } = JSON.parse(body.toString()) as { messages: unknown[] };
    res.writeHead(200, { "Content-Type": "application/json" });
    const message = messages.length === 2 ? { role: "assistant", content: "", tool_calls: [call] } : { role: "assistant", content: "Added." };
    res.end(JSON.stringify({ model: "m", created_at: "t", message, done: true }));
  });
  const mcp = await startUpstream((_req, res, body) => {
    const { id } = JSON.parse(body.toString()) as { id: number };
    res.writeHead(200, { "Content-Type": "application/json" });
    res.end(JSON.stringify({ jsonrpc: "2.0", id, result: { content: [{ type: "text", text: "Success" }] } }));
  });
  ups.push(model, mcp);
  return startRecorder({ model: model.url, mcp: mcp.url });
}

const post = (url: string, body: unknown, headers: Record<string, string> = {}) =>
  request(url, { method: "POST", body: JSON.stringify(body), headers: { "content-type": "application/json", ...headers } });

describe("grouping without traceparent", () => {
  it("puts a whole tool-calling turn of a bare client into one trace, linked", async () => {
    rec = await stack();
    await post(`${rec.taps.model.url}/api/chat`, { model: "m", stream: false, messages: [sys, user] });
    await post(`${rec.taps.mcp.url}/mcp`, { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "append", arguments: { content: "buy milk" } } });
    await post(`${rec.taps.model.url}/api/chat`, {
      model: "m",
      stream: false,
      messages: [sys, user, { role: "assistant", content: "", tool_calls: [call] }, { role: "tool", content: "Success", tool_name: "append" }],
    });
    // A different question starts its own trace.
    await post(`${rec.taps.model.url}/api/chat`, { model: "m", stream: false, messages: [sys, { role: "user", content: "What is in my notes?" }] });
    const all = await eventually(async () => {
      const t = await traces(rec!);
      return t.length === 2 && t.reduce((n, x) => n + x.exchanges.length, 0) === 4 ? t : null;
    }, "two traces");
    const turn = all.find((t) => t.exchanges.length === 3)!;
    expect(turn).toMatchObject({ groupedBy: "conversation", name: "Add buy milk to my notes" });
    expect(turn.exchanges.map((e) => e.tap)).toEqual(["model", "mcp", "model"]);
    const [chat1, toolCall, chat2] = turn.exchanges;
    expect(turn.links).toEqual([
      { kind: "tool-call", from: chat1!.id, to: toolCall!.id, toolName: "append", toolCallIndex: 0 },
      { kind: "tool-result", from: toolCall!.id, to: chat2!.id, toolName: "append", messageIndex: 3 },
    ]);
    const other = all.find((t) => t.exchanges.length === 1)!;
    expect(other).toMatchObject({ groupedBy: "single", name: "What is in my notes?" });
  });

  it("groups an MCP request by params._meta.traceparent", async () => {
    rec = await stack();
    const traceId = "4bf92f3577b34da6a3ce929d0e0e4736";
    await post(`${rec.taps.mcp.url}/mcp`, { jsonrpc: "2.0", id: 1, method: "tools/list", params: { _meta: { traceparent: `00-${traceId}-00f067aa0ba902b7-01` } } });
    await post(`${rec.taps.model.url}/api/chat`, { model: "m", stream: false, messages: [sys, user] }, { traceparent: `00-${traceId}-00f067aa0ba902b8-01` });
    const [t] = await eventually(async () => {
      const list = await traces(rec!);
      return list.length === 1 && list[0]!.exchanges.length === 2 ? list : null;
    }, "one trace of two");
    expect(t).toMatchObject({ id: traceId, groupedBy: "traceparent" });
  });
});
