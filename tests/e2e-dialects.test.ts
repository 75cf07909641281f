/**
 * The three dialects through the model tap, with the official clients nobody here wrote: the `openai` client,
 * `@anthropic-ai/sdk` and the Vercel AI SDK's tool loop against the stand-in, recorded by the real recorder.
 * Each turn is classified (tool calls, stream, usage), a follow-up joins its conversation, and what the model saw
 * is byte for byte the render of the native request Ollama builds — with the conversion layer shown.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import Anthropic from "@anthropic-ai/sdk";
import OpenAI from "openai";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import { generateText, jsonSchema, stepCountIs, tool } from "ai";
import { renderChat, renderGenerate } from "@hopscope/shared/prompt/render";
import { ExchangeSchema, TraceSchema, type Exchange, type Trace } from "@hopscope/shared/trace/schemas";
import { TraceListSchema } from "@hopscope/shared/trace/api";
import { ExchangeViewsSchema, type ExchangeViews } from "@hopscope/shared/trace/views";
import { ThreeShapesSchema } from "@hopscope/shared/trace/shapes";
import { startRecorderStack, type RecorderStack } from "./support/recorder-stack";

let stack: RecorderStack;
let modelTap: string;

beforeAll(async () => {
  stack = await startRecorderStack({ sim: { ollamaVersion: "0.14.0" } });
  modelTap = (JSON.parse(await stack.api("/api/config")) as { modelTapUrl: string }).modelTapUrl;
});
afterAll(() => stack.close());

const ask = "Add buy milk to my notes";
const schema = {
  type: "object",
  properties: { content: { type: "string", description: "Content that gets appended" } },
  required: ["content"],
};
const nativeTools = [
  {
    type: "function",
    function: { name: "append", description: "Append content to the end of the file", parameters: schema },
  },
];
/** The native turn both dialect conversations become, for comparing prompts byte for byte. */
const nativeTurn2 = (id: string) => ({
  model: "qwen2.5:7b",
  messages: [
    { role: "user", content: ask },
    {
      role: "assistant",
      content: "",
      tool_calls: [{ id, function: { name: "append", arguments: { content: "buy milk" } } }],
    },
    { role: "tool", content: "Success", tool_call_id: id },
  ],
  tools: nativeTools,
});

async function modelExchanges(path: string, count: number): Promise<{ trace: Trace; ex: Exchange }[]> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const list = TraceListSchema.parse(JSON.parse(await stack.api("/api/traces?limit=100")));
    const found: { trace: Trace; ex: Exchange }[] = [];
    for (const t of list.traces) {
      const trace = TraceSchema.parse(JSON.parse(await stack.api(`/api/traces/${t.id}`)));
      for (const s of trace.exchanges) {
        if (s.tap === "model" && new URL(s.url, "http://x").pathname === path && s.state === "complete") {
          found.push({ trace, ex: ExchangeSchema.parse(JSON.parse(await stack.api(`/api/exchanges/${s.id}`))) });
        }
      }
    }
    if (found.length >= count) return found.sort((a, b) => a.ex.id - b.ex.id);
    if (Date.now() > deadline) throw new Error(`expected ${count} recorded ${path} exchanges, saw ${found.length}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const views = async (id: number): Promise<ExchangeViews> =>
  ExchangeViewsSchema.parse(JSON.parse(await stack.api(`/api/exchanges/${id}/views`)));

describe("openai client through the model tap", () => {
  it("two turns: recorded, grouped as one conversation, what the model saw equals the native render", async () => {
    const openai = new OpenAI({ baseURL: `${modelTap}/v1`, apiKey: "ollama", maxRetries: 0 });
    const tools = nativeTools as OpenAI.Chat.Completions.ChatCompletionTool[];
    const first = await openai.chat.completions.create({
      model: "qwen2.5:7b",
      messages: [{ role: "user", content: ask }],
      tools,
    });
    const call = first.choices[0]!.message.tool_calls![0]!;
    if (call.type !== "function") throw new Error("no function call");
    const stream = await openai.chat.completions.create({
      model: "qwen2.5:7b",
      tools,
      stream: true,
      messages: [
        { role: "user", content: ask },
        first.choices[0]!.message,
        { role: "tool", tool_call_id: call.id, content: "Success" },
      ],
    });
    for await (const chunk of stream) void chunk;

    const [a, b] = await modelExchanges("/v1/chat/completions", 2);
    expect(b!.trace.id).toBe(a!.trace.id);
    expect(a!.ex.classification).toMatchObject({
      kind: "model.chat",
      stream: false,
      toolCalls: [{ name: "append", arguments: { content: "buy milk" }, id: call.id }],
    });
    expect((a!.ex.classification as { promptEvalCount?: number }).promptEvalCount).toBeGreaterThan(100);
    expect(b!.ex.classification).toMatchObject({ kind: "model.chat", stream: true, messageCount: 3 });

    const v = await views(b!.ex.id);
    expect(v.prompt!.text).toBe(renderChat(nativeTurn2(call.id), { ollamaVersion: "0.14.0" }).text);
    expect(v.prompt!.conversion).toMatchObject({ dialect: "openai-chat", endpoint: "/api/chat" });
    expect(v.prompt!.segments.find((s) => s.path === "/messages/1/tool_calls/0/function/arguments")?.clientPath).toBe(
      "/messages/1/tool_calls/0/function/arguments",
    );
    expect(v.rawOutput!.text.toLowerCase()).toContain("buy milk");
    expect(v.diff!.previousExchangeId).toBe(a!.ex.id);
    expect((await views(a!.ex.id)).rawOutput!.text).toBe(
      '<tool_call>\n{"name": "append", "arguments": {"content": "buy milk"}}\n</tool_call>',
    );
  });
});

describe("@anthropic-ai/sdk through the model tap", () => {
  it("tool_use, then tool_result streamed: classified, and the prompt is the native render", async () => {
    const anthropic = new Anthropic({ baseURL: modelTap, apiKey: "ollama", maxRetries: 0 });
    const tools: Anthropic.Tool[] = [
      {
        name: "append",
        description: "Append content to the end of the file",
        input_schema: schema as Anthropic.Tool.InputSchema,
      },
    ];
    const first = await anthropic.messages.create({
      model: "qwen2.5:7b",
      max_tokens: 1024,
      messages: [{ role: "user", content: ask }],
      tools,
    });
    const use = first.content.find((c) => c.type === "tool_use");
    if (!use || use.type !== "tool_use") throw new Error("no tool_use");
    await anthropic.messages
      .stream({
        model: "qwen2.5:7b",
        max_tokens: 1024,
        tools,
        messages: [
          { role: "user", content: ask },
          { role: "assistant", content: first.content },
          { role: "user", content: [{ type: "tool_result", tool_use_id: use.id, content: "Success" }] },
        ],
      })
      .finalMessage();

    const [a, b] = await modelExchanges("/v1/messages", 2);
    expect(b!.trace.id, "the streamed tool_result turn joins its conversation").toBe(a!.trace.id);
    expect(a!.ex.classification).toMatchObject({
      kind: "model.chat",
      stream: false,
      toolCalls: [{ name: "append", arguments: { content: "buy milk" }, id: use.id }],
    });
    expect(b!.ex.classification).toMatchObject({ kind: "model.chat", stream: true, messageCount: 3 });
    expect((b!.ex.classification as { evalCount?: number }).evalCount).toBeGreaterThan(0);
    const v = await views(b!.ex.id);
    expect(v.prompt!.text).toBe(renderChat(nativeTurn2(use.id), { ollamaVersion: "0.14.0" }).text);
    expect(v.prompt!.segments.find((s) => s.path === "/messages/2/content")?.clientPath).toBe(
      "/messages/2/content/0/content",
    );
    expect(v.prompt!.segments.find((s) => s.path === "/messages/1/tool_calls/0/function/arguments")?.clientPath).toBe(
      "/messages/1/content/0/input",
    );
    expect(JSON.parse(v.prompt!.conversion!.native).messages[2]).toEqual({
      role: "tool",
      content: "Success",
      tool_call_id: use.id,
    });
  });

  it("a body Ollama refuses is recorded with its error, and the view says why there is no prompt", async () => {
    const res = await fetch(`${modelTap}/v1/messages`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        model: "qwen2.5:7b",
        max_tokens: 10,
        messages: [{ role: "assistant", content: [{ type: "tool_use", name: "append", input: {} }] }],
      }),
    });
    expect(res.status).toBe(400);
    const all = await modelExchanges("/v1/messages", 3);
    const bad = all.find((x) => x.ex.status === 400)!;
    const v = await views(bad.ex.id);
    expect(v.prompt).toBeUndefined();
    expect(v.refused).toEqual({ status: 400, message: "tool_use block missing required 'id' field" });
    expect(v.notes![0]).toContain("Ollama refuses this request");
  });
});

describe("errors after conversion", () => {
  it("a model that is not pulled: the prompt Ollama would have rendered, and a note that the model never saw it", async () => {
    const openai = new OpenAI({ baseURL: `${modelTap}/v1`, apiKey: "ollama", maxRetries: 0 });
    const err = await openai.chat.completions
      .create({ model: "llama9", messages: [{ role: "user", content: "hi there" }] })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OpenAI.NotFoundError);
    const all = await modelExchanges("/v1/chat/completions", 3);
    const missing = all.find((x) => x.ex.status === 404)!;
    const v = await views(missing.ex.id);
    expect(v.prompt!.text).toContain("hi there");
    expect(v.notes!.join(" ")).toContain("The model server answered 404 (model 'llama9' not found)");
  });
});

describe("openai client's Responses API through the model tap", () => {
  it("function_call, then function_call_output streamed: the prompt is the native render, linked to input items", async () => {
    const openai = new OpenAI({ baseURL: `${modelTap}/v1`, apiKey: "ollama", maxRetries: 0 });
    const tools = [
      {
        type: "function" as const,
        name: "append",
        description: "Append content to the end of the file",
        parameters: schema,
        strict: false,
      },
    ];
    const first = await openai.responses.create({ model: "qwen2.5:7b", input: ask, tools });
    const call = first.output.find((o) => o.type === "function_call");
    if (!call || call.type !== "function_call") throw new Error("no function_call");
    const stream = await openai.responses.create({
      model: "qwen2.5:7b",
      tools,
      stream: true,
      input: [
        { role: "user", content: ask },
        { type: "function_call", call_id: call.call_id, name: call.name, arguments: call.arguments },
        { type: "function_call_output", call_id: call.call_id, output: "Success" },
      ],
    });
    for await (const ev of stream) void ev;
    const [a, b] = await modelExchanges("/v1/responses", 2);
    expect(b!.trace.id, "the streamed function_call_output turn joins its conversation").toBe(a!.trace.id);
    expect(a!.trace.name).toBe(ask);
    expect(a!.ex.classification).toMatchObject({
      kind: "model.chat",
      toolCalls: [{ name: "append", arguments: { content: "buy milk" }, id: call.call_id }],
    });
    expect(b!.ex.classification).toMatchObject({ kind: "model.chat", stream: true, messageCount: 3 });
    const v = await views(b!.ex.id);
    expect(v.prompt!.text).toBe(renderChat(nativeTurn2(call.call_id), { ollamaVersion: "0.14.0" }).text);
    expect(v.prompt!.segments.find((s) => s.path === "/messages/2/content")?.clientPath).toBe("/input/2/output");
    expect(v.rawOutput!.text.toLowerCase()).toContain("buy milk");
  });
});

describe("Vercel AI SDK through the model tap", () => {
  it("the tool loop's two model calls are one conversation", async () => {
    const provider = createOpenAICompatible({ name: "ollama", baseURL: `${modelTap}/v1` });
    const executed: string[] = [];
    const res = await generateText({
      model: provider("qwen2.5:7b"),
      prompt: "Add eggs to my notes",
      tools: {
        append: tool({
          description: "Append content to the end of the file",
          inputSchema: jsonSchema<{ content: string }>(schema as never),
          execute: async ({ content }) => (executed.push(content), "Success"),
        }),
      },
      stopWhen: stepCountIs(3),
    });
    expect(executed).toEqual(["eggs"]);
    expect(res.steps).toHaveLength(2);
    const all = await modelExchanges("/v1/chat/completions", 4);
    const loop = all.filter((x) => (x.ex.requestBody?.data ?? "").includes("Add eggs"));
    expect(loop).toHaveLength(2);
    expect(loop[1]!.trace.id).toBe(loop[0]!.trace.id);
    expect((await views(loop[1]!.ex.id)).prompt!.text).toContain("<tool_response>\nSuccess\n</tool_response>");
  });
});

describe("/api/generate through the model tap", () => {
  it("has a prompt view and the model's text", async () => {
    const body = { model: "qwen2.5:7b", prompt: "Why is the sky blue?", stream: false };
    await fetch(`${modelTap}/api/generate`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    const [g] = await modelExchanges("/api/generate", 1);
    const v = await views(g!.ex.id);
    expect(v.prompt!.text).toBe(renderGenerate(body, { ollamaVersion: "0.14.0" }).text);
    expect(v.prompt!.conversion).toBeUndefined();
    expect(v.rawOutput!.text.length).toBeGreaterThan(0);
  });
});

describe("GET /api/exchanges/:id/shapes", () => {
  it("finds the same turn recorded in another dialect, and converts the one nobody recorded", async () => {
    const [openaiTurn] = await modelExchanges("/v1/chat/completions", 1);
    const shapes = ThreeShapesSchema.parse(JSON.parse(await stack.api(`/api/exchanges/${openaiTurn!.ex.id}/shapes`)));
    const by = Object.fromEntries(shapes.shapes.map((s) => [s.dialect, s]));
    expect([by.openai!.source, by.anthropic!.source, by.ollama!.source]).toEqual(["recorded", "recorded", "converted"]);
    expect(shapes.shapes.every((s) => s.samePrompt)).toBe(true);
    expect(by.openai!.toolCallShape).toContain('"arguments": "{\\"content\\":\\"buy milk\\"}"');
    expect(by.anthropic!.toolCallShape).toContain('"type": "tool_use"');
    expect(JSON.parse(by.ollama!.response!).message.tool_calls[0].function.arguments).toEqual({ content: "buy milk" });
    expect(shapes.notes.join(" ")).toContain("converted");
    expect(shapes.prompt).toContain("<|im_start|>user\nAdd buy milk to my notes<|im_end|>");
  });
});
