/**
 * Trace names (issue 11): a trace is named after the user's question the moment the agent request is seen
 * and keeps that name while its other exchanges complete; a bare model trace is named after the first
 * user message of its chat; a user's rename always wins.
 */
import { afterEach, describe, expect, it } from "vitest";
import type { TraceSummary } from "@hopscope/shared/trace/schemas";
import {
  closeAll,
  eventually,
  getJson,
  request,
  startRecorder,
  startUpstream,
  type TestRecorder,
  type Upstream,
} from "./helpers";

let rec: TestRecorder | null = null;
const ups: Upstream[] = [];
afterEach(() => closeAll(rec, ...ups.splice(0)));

const TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736";
const traceparent = `00-${TRACE_ID}-00f067aa0ba902b7-01`;
const json = { "content-type": "application/json" };

async function traceSummary(r: TestRecorder, id: string): Promise<TraceSummary | undefined> {
  const list = await getJson<{ traces: TraceSummary[] }>(`${r.url}/api/traces`);
  return list.body.traces.find((t) => t.id === id);
}

const chat = (messages: { role: string; content: string }[]) =>
  JSON.stringify({ model: "qwen2.5:7b", stream: false, messages });

describe("trace names", () => {
  it("names the trace after the question as soon as the agent request is seen, keeps it, and a rename wins", async () => {
    let answerAgent!: () => void;
    const agentAnswered = new Promise<void>((r) => (answerAgent = r));
    const agent = await startUpstream((_req, res) => {
      void agentAnswered.then(() => res.writeHead(200, json).end(JSON.stringify({ reply: "Done." })));
    });
    const model = await startUpstream((_req, res) => {
      res
        .writeHead(200, json)
        .end(JSON.stringify({ model: "qwen2.5:7b", message: { role: "assistant", content: "ok" }, done: true }));
    });
    ups.push(agent, model);
    rec = await startRecorder({ agent: agent.url, model: model.url });
    const r = rec;
    const agentCall = request(`${r.taps.agent.url}/agent`, {
      method: "POST",
      headers: { ...json, traceparent },
      body: JSON.stringify({ message: "Add buy milk to my notes" }),
    });
    // The host's model call of the same question, completed while the agent request is still open.
    await eventually(async () => agent.received.length === 1, "the agent request upstream");
    const modelRes = await request(`${r.taps.model.url}/api/chat`, {
      method: "POST",
      headers: { ...json, traceparent },
      body: chat([
        { role: "system", content: "You keep notes." },
        { role: "user", content: "a different first user message" },
      ]),
    });
    expect(modelRes.status).toBe(200);
    const stored = await eventually(() => traceSummary(r, TRACE_ID), "the trace stored with its first exchange");
    expect(stored.name).toBe("Add buy milk to my notes");
    expect(stored.exchangeCount).toBe(1);

    const renamed = await fetch(`${r.url}/api/traces/${TRACE_ID}`, {
      method: "PATCH",
      headers: json,
      body: JSON.stringify({ name: "Milk demo" }),
    });
    expect(renamed.status).toBe(200);
    answerAgent();
    expect((await agentCall).status).toBe(200);
    const after = await eventually(async () => {
      const t = await traceSummary(r, TRACE_ID);
      return t && t.exchangeCount === 2 ? t : null;
    }, "the agent exchange stored");
    expect(after.name).toBe("Milk demo");
  });

  it("names a bare model trace after the first user message of its chat, and keeps it on the next turn", async () => {
    const model = await startUpstream((_req, res) => {
      res
        .writeHead(200, json)
        .end(JSON.stringify({ model: "qwen2.5:7b", message: { role: "assistant", content: "ok" }, done: true }));
    });
    ups.push(model);
    rec = await startRecorder({ model: model.url });
    const first = [{ role: "user", content: "What is on my list?" }];
    await request(`${rec.taps.model.url}/api/chat`, { method: "POST", headers: json, body: chat(first) });
    const next = [...first, { role: "assistant", content: "ok" }, { role: "user", content: "And tomorrow?" }];
    await request(`${rec.taps.model.url}/api/chat`, { method: "POST", headers: json, body: chat(next) });
    const r = rec;
    const list = await eventually(async () => {
      const l = await getJson<{ traces: TraceSummary[] }>(`${r.url}/api/traces`);
      return l.body.traces.length === 1 && l.body.traces[0]!.exchangeCount === 2 ? l.body.traces : null;
    }, "both turns in one trace");
    expect(list[0]!.name).toBe("What is on my list?");
  });
});
