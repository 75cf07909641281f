/**
 * The article's question through each dialect for real: the host speaks Ollama's /api/chat, OpenAI's
 * /v1/chat/completions or Anthropic's /v1/messages (AGENT_DIALECT, or "dialect" per question), the stand-in
 * answers in kind, the recorder keeps every hop — and the model sees the same prompt, byte for byte.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AgentResponse } from "@hopscope/shared/agent/schemas";
import { ExchangeViewsSchema } from "@hopscope/shared/trace/views";
import type { Trace } from "@hopscope/shared/trace/schemas";
import { startRecorderStack, type RecorderStack } from "./support/recorder-stack";

const ASK = "Add buy milk to my notes";
let stack: RecorderStack;

beforeAll(async () => {
  stack = await startRecorderStack({ sim: { ollamaVersion: "0.14.0" }, host: { dialect: "anthropic" } });
});
afterAll(() => stack.close());

async function prompts(trace: Trace): Promise<{ path: string; text: string }[]> {
  const model = trace.exchanges.filter((e) => e.tap === "model" && e.classification.kind === "model.chat");
  return Promise.all(
    model.map(async (e) => ({
      path: new URL(e.url, "http://x").pathname,
      text: ExchangeViewsSchema.parse(JSON.parse(await stack.api(`/api/exchanges/${e.id}/views`))).prompt!.text,
    })),
  );
}

describe("the host in three dialects", () => {
  it("each dialect runs the tool loop; the recorded prompts are identical across dialects", async () => {
    const seen: Record<string, { path: string; text: string }[]> = {};
    for (const dialect of ["ollama", "openai", undefined] as const) {
      const res = await stack.ask(ASK, undefined, dialect ? { dialect } : {});
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      const body = res.body as AgentResponse;
      expect(body.toolCalls.map((t) => [t.name, t.arguments])).toEqual([["append", { content: "buy milk" }]]);
      expect(body.reply.toLowerCase()).toContain("buy milk");
      const trace = await stack.waitForTrace(ASK);
      expect(trace.groupedBy).toBe("traceparent");
      seen[dialect ?? "anthropic (AGENT_DIALECT)"] = await prompts(trace);
    }
    expect(seen.ollama!.map((p) => p.path)).toEqual(["/api/chat", "/api/chat"]);
    expect(seen.openai!.map((p) => p.path)).toEqual(["/v1/chat/completions", "/v1/chat/completions"]);
    expect(seen["anthropic (AGENT_DIALECT)"]!.map((p) => p.path)).toEqual(["/v1/messages", "/v1/messages"]);
    const texts = Object.values(seen).map((ps) => ps.map((p) => p.text));
    expect(texts[0]![1]).toContain("<tool_response>");
    expect(texts[1]).toEqual(texts[0]);
    expect(texts[2]).toEqual(texts[0]);
    expect(await stack.readNotes()).toContain("buy milk");
  });

  it("a bad dialect is a clear 400", async () => {
    const res = await stack.ask(ASK, undefined, { dialect: "cobol" });
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body)).toContain('dialect must be \\"ollama\\", \\"openai\\" or \\"anthropic\\"');
  });
});

describe("the host streaming in the other dialects (AGENT_STREAM=true)", () => {
  let streaming: RecorderStack;
  beforeAll(async () => {
    streaming = await startRecorderStack({ sim: { ollamaVersion: "0.14.0" }, stream: true });
  });
  afterAll(() => streaming.close());

  it("reads OpenAI and Anthropic event streams into the same tool loop", async () => {
    for (const dialect of ["openai", "anthropic"] as const) {
      const res = await streaming.ask(ASK, undefined, { dialect });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect((res.body as AgentResponse).toolCalls.map((t) => t.name)).toEqual(["append"]);
      const trace = await streaming.waitForTrace(ASK);
      const model = trace.exchanges.filter((e) => e.tap === "model");
      expect(model.map((e) => e.classification.kind === "model.chat" && e.classification.stream)).toEqual([true, true]);
      expect(model.every((e) => e.chunkCount > 1)).toBe(true);
    }
  });
});

describe("a dialect the model server does not serve", () => {
  let old: RecorderStack;
  beforeAll(async () => {
    old = await startRecorderStack({ sim: { ollamaVersion: "0.13.5" } });
  });
  afterAll(() => old.close());

  it("says which Ollama it needs, with the server's 404", async () => {
    const res = await old.ask(ASK, undefined, { dialect: "anthropic" });
    expect(res.status).toBe(502);
    expect(JSON.stringify(res.body)).toContain(
      "/v1/messages answered HTTP 404: 404 page not found (does this Ollama serve /v1/messages? It needs Ollama 0.14.0 or newer)",
    );
  });
});
