/**
 * The lesson of the article's Part 1.3: the same turn in three shapes (Ollama's own, OpenAI's JSON-string
 * arguments, Anthropic's tool_use blocks) becomes one native request and so one prompt, byte for byte; and every
 * printed part of that prompt still links to the field of the client's JSON it came from.
 */
import { describe, expect, it } from "vitest";
import { renderDialect } from "@hopscope/shared/dialects/render-dialect";
import { renderChat } from "@hopscope/shared/prompt/render";

const schema = {
  type: "object",
  properties: { text: { type: "string", description: "The note" } },
  required: ["text"],
};
const ask = "Add buy milk to my notes";
const args = { text: "buy milk" };
const result = "Added note 3: buy milk";

const ollama = {
  model: "qwen2.5:7b",
  messages: [
    { role: "user", content: ask },
    { role: "assistant", content: "", tool_calls: [{ id: "call_1", function: { name: "add_note", arguments: args } }] },
    { role: "tool", content: result, tool_call_id: "call_1" },
  ],
  tools: [{ type: "function", function: { name: "add_note", description: "Add a note", parameters: schema } }],
};
const openai = {
  model: "qwen2.5:7b",
  messages: [
    { role: "user", content: ask },
    {
      role: "assistant",
      content: null,
      tool_calls: [{ id: "call_1", type: "function", function: { name: "add_note", arguments: JSON.stringify(args) } }],
    },
    { role: "tool", tool_call_id: "call_1", content: result },
  ],
  tools: [{ type: "function", function: { name: "add_note", description: "Add a note", parameters: schema } }],
};
const anthropic = {
  model: "qwen2.5:7b",
  max_tokens: 1024,
  messages: [
    { role: "user", content: ask },
    { role: "assistant", content: [{ type: "tool_use", id: "call_1", name: "add_note", input: args }] },
    { role: "user", content: [{ type: "tool_result", tool_use_id: "call_1", content: result }] },
  ],
  tools: [{ name: "add_note", description: "Add a note", input_schema: schema }],
};
const responses = {
  model: "qwen2.5:7b",
  input: [
    { role: "user", content: ask },
    { type: "function_call", call_id: "call_1", name: "add_note", arguments: JSON.stringify(args) },
    { type: "function_call_output", call_id: "call_1", output: result },
  ],
  tools: [{ type: "function", name: "add_note", description: "Add a note", parameters: schema }],
};

describe("three shapes, one prompt", () => {
  for (const version of ["0.13.5", "0.14.0"]) {
    it(`every dialect renders the native request's prompt (Ollama ${version})`, () => {
      const want = renderChat(ollama, { ollamaVersion: version }).text;
      expect(want).toContain("<tool_call>");
      for (const [d, body] of [
        ["openai-chat", openai],
        ["anthropic", anthropic],
        ["openai-responses", responses],
      ] as const) {
        expect(renderDialect(d, body, { ollamaVersion: version }).text, d).toBe(want);
      }
    });
  }

  it("segments link to the client's own fields", () => {
    const find = (r: ReturnType<typeof renderDialect>, path: string) =>
      r.segments.find((s) => s.path === path)?.clientPath;
    const a = renderDialect("anthropic", anthropic);
    expect(find(a, "/messages/0/content")).toBe("/messages/0/content");
    expect(find(a, "/messages/1/tool_calls/0/function/arguments")).toBe("/messages/1/content/0/input");
    expect(find(a, "/messages/2/content")).toBe("/messages/2/content/0/content");
    expect(find(a, "/tools/0/function")).toBe("/tools/0");
    const o = renderDialect("openai-chat", openai);
    expect(find(o, "/messages/1/tool_calls/0/function/arguments")).toBe("/messages/1/tool_calls/0/function/arguments");
    const r = renderDialect("openai-responses", responses);
    expect(find(r, "/messages/2/content")).toBe("/input/2/output");
    // Text no client field produced (the model's SYSTEM, template text) has no client path.
    expect(a.segments.filter((s) => s.kind === "template").every((s) => s.clientPath === undefined)).toBe(true);
  });

  it("/v1/completions renders as /api/generate with the model's own template", () => {
    const r = renderDialect("openai-completions", { model: "qwen2.5:7b", prompt: "Why is the sky blue?" });
    expect(r.text).toContain("<|im_start|>user\nWhy is the sky blue?<|im_end|>");
    expect(r.segments.find((s) => s.path === "/prompt")?.clientPath).toBe("/prompt");
  });
});

describe("the other direction: a native turn written in each dialect", async () => {
  const { openAiChatBody, anthropicBody } = await import("@hopscope/shared/dialects/from-native");
  // As the host keeps history: tool results carry tool_name only, calls may have ids.
  const hostHistory = {
    ...ollama,
    messages: [ollama.messages[0], ollama.messages[1], { role: "tool", content: result, tool_name: "add_note" }],
  };
  it("converting back gives the same prompt; OpenAI arguments are a string, Anthropic has tool_use and tool_result blocks", () => {
    const want = renderChat(ollama).text;
    const o = openAiChatBody(hostHistory);
    const a = anthropicBody(hostHistory);
    expect(renderDialect("openai-chat", o).text).toBe(want);
    expect(renderDialect("anthropic", a).text).toBe(want);
    expect((o.messages as Array<Record<string, unknown>>)[2]).toEqual({
      role: "tool",
      tool_call_id: "call_1",
      content: result,
    });
    expect((a.messages as Array<Record<string, unknown>>)[1]).toEqual({
      role: "assistant",
      content: [{ type: "tool_use", id: "call_1", name: "add_note", input: args }],
    });
    expect((a.messages as Array<Record<string, unknown>>)[2]).toEqual({
      role: "user",
      content: [{ type: "tool_result", tool_use_id: "call_1", content: result }],
    });
  });
});

describe("a request the handler refuses", () => {
  it("no model: 400 model is required (chat), the generate handler's 404", async () => {
    const { DialectError } = await import("@hopscope/shared/dialects/dialect-error");
    const refusal = (fn: () => unknown) => {
      try {
        fn();
      } catch (err) {
        return err instanceof DialectError ? [err.status, err.message] : String(err);
      }
      return "rendered";
    };
    expect(refusal(() => renderDialect("openai-chat", { messages: [{ role: "user", content: "x" }] }))).toEqual([
      400,
      "model is required",
    ]);
    expect(refusal(() => renderDialect("openai-completions", { prompt: "x" }))).toEqual([404, "model '' not found"]);
  });
});
