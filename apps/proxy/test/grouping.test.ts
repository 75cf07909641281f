/**
 * Grouping through the taps for traffic without a traceparent header (a foreign host or a bare client):
 * the conversation fallback (identical conversations at once told apart by their client connections), the
 * tools/call that follows a model's tool call, and MCP `_meta.traceparent`.
 */
import http from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { ExchangeSchema } from "@hopscope/shared/trace/schemas";
import {
  closeAll,
  getJson,
  request,
  startRecorder,
  startUpstream,
  traces,
  eventually,
  type TestRecorder,
  type Upstream,
} from "./helpers";

let rec: TestRecorder | null = null;
const ups: Upstream[] = [];
afterEach(() => closeAll(rec, ...ups.splice(0)));

const sys = { role: "system", content: "You take notes." };
const user = { role: "user", content: "Add buy milk to my notes" };
const call = { function: { name: "append", arguments: { content: "buy milk" } } };

async function stack() {
  const model = await startUpstream((_req, res, body) => {
    const { messages } = JSON.parse(body.toString()) as { messages: unknown[] };
    res.writeHead(200, { "Content-Type": "application/json" });
    const message =
      messages.length === 2
        ? { role: "assistant", content: "", tool_calls: [call] }
        : { role: "assistant", content: "Added." };
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
  request(url, {
    method: "POST",
    body: JSON.stringify(body),
    headers: { "content-type": "application/json", ...headers },
  });

describe("grouping without traceparent", () => {
  it("puts a whole tool-calling turn of a bare client into one trace, linked", async () => {
    rec = await stack();
    await post(`${rec.taps.model.url}/api/chat`, { model: "m", stream: false, messages: [sys, user] });
    await post(`${rec.taps.mcp.url}/mcp`, {
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: { name: "append", arguments: { content: "buy milk" } },
    });
    await post(`${rec.taps.model.url}/api/chat`, {
      model: "m",
      stream: false,
      messages: [
        sys,
        user,
        { role: "assistant", content: "", tool_calls: [call] },
        { role: "tool", content: "Success", tool_name: "append" },
      ],
    });
    // A different question starts its own trace.
    await post(`${rec.taps.model.url}/api/chat`, {
      model: "m",
      stream: false,
      messages: [sys, { role: "user", content: "What is in my notes?" }],
    });
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
    await post(`${rec.taps.mcp.url}/mcp`, {
      jsonrpc: "2.0",
      id: 1,
      method: "tools/list",
      params: { _meta: { traceparent: `00-${traceId}-00f067aa0ba902b7-01` } },
    });
    await post(
      `${rec.taps.model.url}/api/chat`,
      { model: "m", stream: false, messages: [sys, user] },
      { traceparent: `00-${traceId}-00f067aa0ba902b8-01` },
    );
    const [t] = await eventually(async () => {
      const list = await traces(rec!);
      return list.length === 1 && list[0]!.exchanges.length === 2 ? list : null;
    }, "one trace of two");
    expect(t).toMatchObject({ id: traceId, groupedBy: "traceparent" });
  });
});

/** A chat request on `agent` (a kept-alive pool of one connection, or none: a new connection each time). */
async function chatOn(url: string, agent: http.Agent | false, learner: string, messages: unknown[]): Promise<void> {
  await request(`${url}/api/chat`, {
    method: "POST",
    agent,
    headers: { "content-type": "application/json", "x-learner": learner },
    body: JSON.stringify({ model: "m", stream: false, messages }),
  });
}

describe("identical conversations without traceparent", () => {
  const turns = [
    [sys, user],
    [
      sys,
      user,
      { role: "assistant", content: "", tool_calls: [call] },
      { role: "tool", content: "Success", tool_name: "append" },
    ],
  ];
  const learnersOf = async (count: number) => {
    const all = await eventually(async () => {
      const t = await traces(rec!);
      return t.reduce((k, x) => k + x.exchanges.length, 0) === count &&
        t.every((x) => x.exchanges.every((e) => e.state === "complete"))
        ? t
        : null;
    }, `${count} exchanges`);
    const learnerOf = async (id: number) =>
      ExchangeSchema.parse((await getJson(`${rec!.url}/api/exchanges/${id}`)).body).requestHeaders.find(
        ([k]) => k === "x-learner",
      )?.[1];
    return Promise.all(all.map(async (t) => (await Promise.all(t.exchanges.map((e) => learnerOf(e.id)))).join(",")));
  };

  it("two learners asking the same at once, each on a kept-alive connection, stay two traces", async () => {
    rec = await stack();
    const pools = [
      new http.Agent({ keepAlive: true, maxSockets: 1 }),
      new http.Agent({ keepAlive: true, maxSockets: 1 }),
    ];
    // B's follow-up comes first: by the messages alone it would join the latest (or the first) conversation.
    await chatOn(rec.taps.model.url, pools[0]!, "A", turns[0]!);
    await chatOn(rec.taps.model.url, pools[1]!, "B", turns[0]!);
    await chatOn(rec.taps.model.url, pools[1]!, "B", turns[1]!);
    await chatOn(rec.taps.model.url, pools[0]!, "A", turns[1]!);
    for (const p of pools) p.destroy();
    expect((await learnersOf(4)).sort()).toEqual(["A,A", "B,B"]);
  });

  it("one conversation over a new connection per turn stays one trace", async () => {
    rec = await stack();
    await chatOn(rec.taps.model.url, false, "A", turns[0]!);
    await chatOn(rec.taps.model.url, false, "A", turns[1]!);
    expect(await learnersOf(2)).toEqual(["A,A"]);
  });
});
