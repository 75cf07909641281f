/**
 * The same engine renders other models' Ollama templates. Texts: fixtures/templates/llama3.1.gotmpl is the
 * `library/llama3.1:8b` template layer (as collected in huggingface.js ollama-utils' chat-template-automap.ts);
 * fixtures/templates/qwen3.gotmpl is the qwen3 template from ollama's thinking/template_test.go (trailing
 * indentation of the Go raw string removed). Expectations are written out by hand from the templates.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { renderChat } from "@hopscope/shared/prompt/render";

const tmpl = (n: string): string => readFileSync(join(import.meta.dirname, "fixtures", "templates", n), "utf8");
const append = {
  type: "function",
  function: {
    name: "append",
    description: "Append content to the end of the file",
    parameters: {
      type: "object",
      properties: { content: { type: "string", description: "Content that gets appended" } },
      required: ["content"],
      additionalProperties: false,
    },
  },
};
const clear = { type: "function", function: { name: "clear", parameters: { type: "object", properties: {} } } };
const user = { role: "user", content: "Add buy milk to my notes" };
const call = {
  role: "assistant",
  content: "",
  tool_calls: [{ function: { name: "append", arguments: { content: "buy milk" } } }],
};
const result = { role: "tool", content: "Success", tool_name: "append" };

const APPEND_JSON =
  '{"name":"append","description":"Append content to the end of the file","parameters":{"type":"object","required":["content"],"properties":{"content":{"type":"string","description":"Content that gets appended"}}}}';

describe("llama3.1 template", () => {
  const header =
    "<|start_header_id|>system<|end_header_id|>\n\nCutting Knowledge Date: December 2023\n\n" +
    "When you receive a tool call response, use the output to format an answer to the orginal user question.\n\n" +
    "You are a helpful assistant with tool calling capabilities.<|eot_id|>";
  const question = (tools: string[]): string =>
    "<|start_header_id|>user<|end_header_id|>\n\nGiven the following functions, please respond with a JSON for a function call with its proper arguments that best answers the given prompt.\n\n" +
    'Respond in the format {"name": function name, "parameters": dictionary of argument name and its value}. Do not use variables.\n\n' +
    tools.map((t) => t + "\n").join("") +
    "\nQuestion: Add buy milk to my notes<|eot_id|><|start_header_id|>assistant<|end_header_id|>\n\n";

  it("prints each tool with Tool.String() (api JSON) up to 0.13.5", () => {
    const r = renderChat(
      { model: "llama3.1", messages: [user], tools: [append, clear] },
      { template: tmpl("llama3.1.gotmpl"), system: "", ollamaVersion: "0.13.5" },
    );
    expect(r.text).toBe(
      header +
        question([
          `{"type":"function","function":${APPEND_JSON}}`,
          '{"type":"function","function":{"name":"clear","parameters":{"type":"object","properties":{}}}}',
        ]),
    );
  });

  it("prints templateTool JSON from 0.14, where an empty description is not omitted", () => {
    const r = renderChat(
      { model: "llama3.1", messages: [user], tools: [append, clear] },
      { template: tmpl("llama3.1.gotmpl"), system: "", ollamaVersion: "0.14.0" },
    );
    expect(r.text).toBe(
      header +
        question([
          `{"type":"function","function":${APPEND_JSON}}`,
          '{"type":"function","function":{"name":"clear","description":"","parameters":{"type":"object","properties":{}}}}',
        ]),
    );
  });

  it.each(["0.13.5", "0.14.0"])("renders a tool round trip as ipython turns (%s)", (v) => {
    const r = renderChat(
      { model: "llama3.1", messages: [user, call, result], tools: [append] },
      { template: tmpl("llama3.1.gotmpl"), system: "", ollamaVersion: v },
    );
    expect(r.text).toBe(
      header +
        "<|start_header_id|>user<|end_header_id|>\n\nAdd buy milk to my notes<|eot_id|>" +
        '<|start_header_id|>assistant<|end_header_id|>\n\n{"name": "append", "parameters": {"content":"buy milk"}}<|eot_id|>' +
        "<|start_header_id|>ipython<|end_header_id|>\n\nSuccess<|eot_id|><|start_header_id|>assistant<|end_header_id|>\n\n",
    );
    const specials = r.segments.filter((s) => s.kind === "special").map((s) => r.text.slice(s.start, s.end));
    expect(new Set(specials)).toEqual(new Set(["<|start_header_id|>", "<|end_header_id|>", "<|eot_id|>"]));
  });
});

describe("qwen3 template", () => {
  const system = (fn: string): string =>
    "<|im_start|>system\n\n# Tools\n\nYou may call one or more functions to assist with the user query.\n\n" +
    "You are provided with function signatures within <tools></tools> XML tags:\n<tools>\n" +
    `{"type": "function", "function": ${fn}}\n</tools>\n\n` +
    "For each function call, return a json object with function name and arguments within <tool_call></tool_call> XML tags:\n" +
    '<tool_call>\n{"name": <function-name>, "arguments": <args-json-object>}\n</tool_call>\n/no_think<|im_end|>\n';
  // `.Thinking` is not a key of the root map, so the header says /no_think; inside the range the message's
  // empty Thinking leaves an extra "\n" after "<|im_start|>assistant\n" (the `{{ if and $last .Thinking }}` block
  // is skipped but the newline after its {{ end }} stays).
  const tail =
    "<|im_start|>user\nAdd buy milk to my notes<|im_end|>\n<|im_start|>assistant\n\n" +
    '<tool_call>\n{"name": "append", "arguments": {"content":"buy milk"}}\n</tool_call><|im_end|>\n' +
    "<|im_start|>user\n<tool_response>\nSuccess\n</tool_response><|im_end|>\n<|im_start|>assistant\n";

  it("renders JSON tools up to 0.13.5", () => {
    const r = renderChat(
      { model: "qwen3", messages: [user, call, result], tools: [append] },
      { template: tmpl("qwen3.gotmpl"), system: "", ollamaVersion: "0.13.5" },
    );
    expect(r.text).toBe(system(APPEND_JSON) + tail);
  });

  it("renders the struct dump from 0.14", () => {
    const r = renderChat(
      { model: "qwen3", messages: [user, call, result], tools: [append] },
      { template: tmpl("qwen3.gotmpl"), system: "", ollamaVersion: "0.14.0" },
    );
    expect(r.text).toBe(
      system(
        '{append Append content to the end of the file {object <nil> <nil> [content] {"content":{"type":"string","description":"Content that gets appended"}}}}',
      ) + tail,
    );
  });
});
