/**
 * The official `openai` and `@anthropic-ai/sdk` clients, and the Vercel AI SDK's openai-compatible provider
 * running a tool loop, against the stand-in's `/v1` endpoints: chat with tools, a tool-result turn, streaming.
 * What they get must be what Ollama's middleware writes for the same native answer.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import Anthropic from "@anthropic-ai/sdk";
import OpenAI from "openai";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import { generateText, jsonSchema, stepCountIs, streamText, tool } from "ai";
import type { RunningServer } from "../src/server";
import { NOTES_TOOLS, startSim } from "./helpers";

let sim: RunningServer;
let openai: OpenAI;
let anthropic: Anthropic;

beforeAll(async () => {
  sim = await startSim({ ollamaVersion: "0.14.0" });
  openai = new OpenAI({ baseURL: `${sim.url}/v1`, apiKey: "ollama", maxRetries: 0 });
  anthropic = new Anthropic({ baseURL: sim.url, apiKey: "ollama", maxRetries: 0 });
});
afterAll(() => sim.close());

const ask = "Add buy milk to my notes";
const openAiTools = NOTES_TOOLS as OpenAI.Chat.Completions.ChatCompletionTool[];
const anthropicTools: Anthropic.Tool[] = NOTES_TOOLS.map((t) => ({
  name: t.function.name,
  description: t.function.description ?? "",
  input_schema: t.function.parameters as Anthropic.Tool.InputSchema,
}));

describe("openai client → /v1/chat/completions", () => {
  it("chat with tools: one append call, its arguments a JSON string, finish_reason tool_calls, usage counted", async () => {
    const res = await openai.chat.completions.create({
      model: "qwen2.5:7b",
      messages: [{ role: "user", content: ask }],
      tools: openAiTools,
    });
    const call = res.choices[0]!.message.tool_calls![0]!;
    expect(call.type).toBe("function");
    if (call.type !== "function") throw new Error("not a function call");
    expect(call.function.name).toBe("append");
    expect(typeof call.function.arguments).toBe("string");
    expect(JSON.parse(call.function.arguments)).toEqual({ content: "buy milk" });
    expect(call.id).toMatch(/^call_[a-z0-9]{8}$/);
    expect(res.choices[0]!.finish_reason).toBe("tool_calls");
    expect(res.id).toMatch(/^chatcmpl-\d+$/);
    expect(res.usage!.prompt_tokens).toBeGreaterThan(100);
    expect(res.usage!.total_tokens).toBe(res.usage!.prompt_tokens + res.usage!.completion_tokens);
  });

  it("a tool-result turn, streamed: text deltas, then finish_reason stop and the usage chunk", async () => {
    const stream = await openai.chat.completions.create({
      model: "qwen2.5:7b",
      stream: true,
      stream_options: { include_usage: true },
      tools: openAiTools,
      messages: [
        { role: "user", content: ask },
        {
          role: "assistant",
          content: null,
          tool_calls: [
            { id: "call_1", type: "function", function: { name: "append", arguments: '{"content":"buy milk"}' } },
          ],
        },
        { role: "tool", tool_call_id: "call_1", content: "Success" },
      ],
    });
    let text = "";
    let finish: string | null = null;
    let usage: OpenAI.CompletionUsage | undefined;
    let chunks = 0;
    for await (const chunk of stream) {
      chunks++;
      text += chunk.choices[0]?.delta.content ?? "";
      finish = chunk.choices[0]?.finish_reason ?? finish;
      usage = chunk.usage ?? usage;
    }
    expect(chunks).toBeGreaterThan(5);
    expect(text.toLowerCase()).toContain("buy milk");
    expect(finish).toBe("stop");
    expect(usage!.completion_tokens).toBeGreaterThan(0);
  });

  it("streamed tool call: the SDK's stream helper assembles it", async () => {
    const stream = openai.chat.completions.stream({
      model: "qwen2.5:7b",
      messages: [{ role: "user", content: ask }],
      tools: openAiTools,
    });
    const done = await stream.finalChatCompletion();
    const call = done.choices[0]!.message.tool_calls![0]!;
    if (call.type !== "function") throw new Error("not a function call");
    expect(JSON.parse(call.function.arguments)).toEqual({ content: "buy milk" });
    expect(done.choices[0]!.finish_reason).toBe("tool_calls");
  });

  it("models.list and a bad request surface as the SDK's typed errors", async () => {
    const models = [];
    for await (const m of openai.models.list()) models.push(m.id);
    expect(models).toEqual(["qwen2.5:7b"]);
    const err = await openai.chat.completions.create({ model: "qwen2.5:7b", messages: [] }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OpenAI.BadRequestError);
    expect((err as InstanceType<typeof OpenAI.BadRequestError>).message).toContain("[] is too short - 'messages'");
    const missing = await openai.chat.completions
      .create({ model: "llama9", messages: [{ role: "user", content: "x" }] })
      .catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(OpenAI.NotFoundError);
  });

  it("responses API: a function_call item, then function_call_output answered with text", async () => {
    const tools = NOTES_TOOLS.map((t) => ({
      type: "function" as const,
      name: t.function.name,
      description: t.function.description ?? null,
      parameters: t.function.parameters as Record<string, unknown>,
      strict: false,
    }));
    const first = await openai.responses.create({ model: "qwen2.5:7b", input: ask, tools });
    const call = first.output.find((o) => o.type === "function_call");
    if (!call || call.type !== "function_call") throw new Error("no function_call item");
    expect([call.name, JSON.parse(call.arguments)]).toEqual(["append", { content: "buy milk" }]);
    const second = await openai.responses.create({
      model: "qwen2.5:7b",
      tools,
      stream: true,
      input: [
        { role: "user", content: ask },
        { type: "function_call", call_id: call.call_id, name: call.name, arguments: call.arguments },
        { type: "function_call_output", call_id: call.call_id, output: "Success" },
      ],
    });
    let text = "";
    for await (const ev of second) if (ev.type === "response.output_text.delta") text += ev.delta;
    expect(text.toLowerCase()).toContain("buy milk");
  });
});

describe("@anthropic-ai/sdk → /v1/messages", () => {
  it("chat with tools: a tool_use block whose input is an object, stop_reason tool_use", async () => {
    const msg = await anthropic.messages.create({
      model: "qwen2.5:7b",
      max_tokens: 1024,
      messages: [{ role: "user", content: ask }],
      tools: anthropicTools,
    });
    const use = msg.content.find((b) => b.type === "tool_use");
    if (!use || use.type !== "tool_use") throw new Error("no tool_use block");
    expect([use.name, use.input]).toEqual(["append", { content: "buy milk" }]);
    expect(msg.stop_reason).toBe("tool_use");
    expect(msg.id).toMatch(/^msg_[0-9a-f]{24}$/);
    expect(msg.usage.input_tokens).toBeGreaterThan(100);
  });

  it("a tool_result turn, streamed: text deltas and end_turn", async () => {
    const stream = anthropic.messages.stream({
      model: "qwen2.5:7b",
      max_tokens: 1024,
      tools: anthropicTools,
      messages: [
        { role: "user", content: ask },
        {
          role: "assistant",
          content: [{ type: "tool_use", id: "call_1", name: "append", input: { content: "buy milk" } }],
        },
        { role: "user", content: [{ type: "tool_result", tool_use_id: "call_1", content: "Success" }] },
      ],
    });
    let deltas = 0;
    stream.on("text", () => deltas++);
    const final = await stream.finalMessage();
    expect(deltas).toBeGreaterThan(5);
    const text = final.content.map((b) => (b.type === "text" ? b.text : "")).join("");
    expect(text.toLowerCase()).toContain("buy milk");
    expect(final.stop_reason).toBe("end_turn");
    expect(final.usage.output_tokens).toBeGreaterThan(0);
  });

  it("a streamed tool call arrives as a tool_use block with its input", async () => {
    const final = await anthropic.messages
      .stream({
        model: "qwen2.5:7b",
        max_tokens: 1024,
        messages: [{ role: "user", content: ask }],
        tools: anthropicTools,
      })
      .finalMessage();
    const use = final.content.find((b) => b.type === "tool_use");
    if (!use || use.type !== "tool_use") throw new Error("no tool_use block");
    expect(use.input).toEqual({ content: "buy milk" });
    expect(final.stop_reason).toBe("tool_use");
  });

  it("a tool_use block without id: 400 invalid_request_error, the SDK's typed error", async () => {
    const err = await anthropic.messages
      .create({
        model: "qwen2.5:7b",
        max_tokens: 10,
        messages: [{ role: "assistant", content: [{ type: "tool_use", name: "append", input: {} } as never] }],
      })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Anthropic.BadRequestError);
    expect((err as InstanceType<typeof Anthropic.BadRequestError>).error).toMatchObject({
      type: "error",
      error: { type: "invalid_request_error", message: "tool_use block missing required 'id' field" },
    });
  });
});

describe("Vercel AI SDK (openai-compatible provider) → /v1/chat/completions", () => {
  const notes: string[] = [];
  const provider = () => createOpenAICompatible({ name: "ollama", baseURL: `${sim.url}/v1`, includeUsage: true });
  const tools = () => ({
    append: tool({
      description: "Append content to the end of the file",
      inputSchema: jsonSchema<{ content: string }>({
        type: "object",
        properties: { content: { type: "string", description: "Content that gets appended" } },
        required: ["content"],
      }),
      execute: async ({ content }: { content: string }) => {
        notes.push(content);
        return "Success";
      },
    }),
  });

  it("generateText runs the tool loop: the call is executed, the result goes back, the model answers", async () => {
    notes.length = 0;
    const res = await generateText({
      model: provider()("qwen2.5:7b"),
      prompt: ask,
      tools: tools(),
      stopWhen: stepCountIs(4),
    });
    expect(notes).toEqual(["buy milk"]);
    expect(res.steps.length).toBe(2);
    expect(res.steps[0]!.toolCalls[0]).toMatchObject({ toolName: "append", input: { content: "buy milk" } });
    expect(res.text.toLowerCase()).toContain("buy milk");
    expect(res.totalUsage.inputTokens).toBeGreaterThan(200);
  });

  it("streamText runs the same loop over SSE", async () => {
    notes.length = 0;
    const res = streamText({ model: provider()("qwen2.5:7b"), prompt: ask, tools: tools(), stopWhen: stepCountIs(4) });
    let text = "";
    for await (const part of res.textStream) text += part;
    expect(notes).toEqual(["buy milk"]);
    expect(text.toLowerCase()).toContain("buy milk");
    expect((await res.steps).length).toBe(2);
  });
});
