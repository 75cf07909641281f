/**
 * Opt-in: the agent end to end against a real Ollama instead of the stand-in, so anyone with a GPU can
 * check the host against qwen2.5:7b. Runs when a model server answers at OLLAMA_URL (default
 * http://127.0.0.1:11434) with OLLAMA_MODEL (default qwen2.5:7b) pulled; otherwise it is skipped and says
 * why. A real model is not deterministic, so only what the article's run shows is asserted.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AgentResponseSchema } from "@hopscope/shared/agent/schemas";
import { SIMULATED_HEADER, TagsResponseSchema } from "@hopscope/shared/ollama/schemas";
import OpenAI from "openai";
import { debugRenderRoute } from "@hopscope/shared/dialects/debug-render";
import { TraceListSchema } from "@hopscope/shared/trace/api";
import { TraceSchema } from "@hopscope/shared/trace/schemas";
import { ExchangeViewsSchema } from "@hopscope/shared/trace/views";
import { startStack, type Stack } from "./support/stack";
import { startRecorderStack, type RecorderStack } from "./support/recorder-stack";

const OLLAMA_URL = (process.env.OLLAMA_URL ?? "http://127.0.0.1:11434").replace(/\/+$/, "");
const MODEL = process.env.OLLAMA_MODEL ?? "qwen2.5:7b";

/** Why the test cannot run here, or null when a real Ollama with the model answers. */
async function unavailable(): Promise<string | null> {
  let res: Response;
  try {
    res = await fetch(`${OLLAMA_URL}/api/tags`, { signal: AbortSignal.timeout(2000) });
  } catch (err) {
    return `no Ollama answers at ${OLLAMA_URL} (${(err as Error).message}); start one and \`ollama pull ${MODEL}\` to run it`;
  }
  if (res.headers.get(SIMULATED_HEADER)) return `${OLLAMA_URL} is the stand-in model, not a real Ollama`;
  const tags = TagsResponseSchema.safeParse(await res.json().catch(() => null));
  if (!tags.success) return `${OLLAMA_URL}/api/tags did not answer like Ollama`;
  const names = tags.data.models.map((m) => m.name);
  if (!names.includes(MODEL))
    return `${MODEL} is not pulled at ${OLLAMA_URL} (has: ${names.join(", ") || "none"}); run \`ollama pull ${MODEL}\``;
  return null;
}

const reason = await unavailable();
if (reason) console.log(`[e2e-ollama] skipped: ${reason}`);

describe.skipIf(reason !== null)(`the agent against a real Ollama (${MODEL} at ${OLLAMA_URL})`, () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ model: { url: OLLAMA_URL, name: MODEL } });
  });
  afterAll(() => stack?.close());

  it("adds buy milk with append, then reads it back", { timeout: 600_000 }, async () => {
    const first = await stack.ask("Add buy milk to my notes");
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    const added = AgentResponseSchema.parse(first.body);
    expect(added.toolCalls.some((c) => c.name === "append" && !c.isError)).toBe(true);
    expect(await stack.readNotes()).toContain("buy milk");

    const second = await stack.ask("What's in my notes?", added.conversationId);
    expect(second.status, JSON.stringify(second.body)).toBe(200);
    const read = AgentResponseSchema.parse(second.body);
    expect(read.toolCalls.map((c) => c.name)).toContain("read");
    expect(read.reply.toLowerCase()).toContain("milk");
    // A real Ollama never sends the stand-in's badge.
    expect(stack.modelRecorder!.exchanges.every((e) => e.responseHeaders[SIMULATED_HEADER] === undefined)).toBe(true);
  });
});

describe.skipIf(reason !== null)(
  `a /v1/chat/completions exchange verified by the real Ollama (${MODEL} at ${OLLAMA_URL})`,
  () => {
    let stack: RecorderStack;
    beforeAll(async () => {
      stack = await startRecorderStack({ modelUpstream: OLLAMA_URL });
    });
    afterAll(() => stack?.close());

    it(
      "the openai client's own request is rendered by Ollama's /v1/chat/completions and equals what the model saw",
      { timeout: 600_000 },
      async () => {
        const openai = new OpenAI({ baseURL: `${stack.tapUrls.model}/v1`, apiKey: "ollama", maxRetries: 0 });
        const parameters = {
          type: "object",
          properties: { content: { type: "string", description: "Content that gets appended" } },
          required: ["content"],
        };
        await openai.chat.completions.create({
          model: MODEL,
          messages: [{ role: "user", content: [{ type: "text", text: "Add buy milk to my notes" }] }],
          tools: [
            {
              type: "function",
              function: { name: "append", description: "Append content to the end of the file", parameters },
            },
          ],
        });
        const list = TraceListSchema.parse(JSON.parse(await stack.api("/api/traces?limit=10")));
        const trace = TraceSchema.parse(JSON.parse(await stack.api(`/api/traces/${list.traces[0]!.id}`)));
        const ex = trace.exchanges.find((e) => e.url === "/v1/chat/completions")!;
        const views = ExchangeViewsSchema.parse(JSON.parse(await stack.api(`/api/exchanges/${ex.id}/views`)));
        const version = views.prompt!.verified!.ollamaVersion!;
        const route = debugRenderRoute("openai-chat", version);
        expect(views.prompt!.verified, JSON.stringify(views.prompt!.verified)).toMatchObject({
          match: true,
          endpoint: route.endpoint,
          sent: route.sent,
        });
        expect(views.prompt!.verified!.server).toBe(views.prompt!.text);
      },
    );
  },
);
