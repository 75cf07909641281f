/**
 * Cross-check against Qwen's own Hugging Face chat template (fixtures/hf_chat_template.jinja, a copy of
 * ../shared/reference/qwen2.5/hf_chat_template.jinja) rendered by @huggingface/jinja: equal where the two agree,
 * and each known difference of reference §6 asserted explicitly. Pinned to Ollama 0.13.5: the JSON family is the
 * one whose tool lines are comparable with HF's (from 0.14 they are a Go struct dump, see versions.test.ts).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Template } from "@huggingface/jinja";
import { describe, expect, it } from "vitest";
import { type ChatRequestLike, type RenderOptions, renderChat as render } from "@hopscope/shared/prompt/render";

const renderChat = (req: ChatRequestLike, opts: RenderOptions = {}) =>
  render(req, { ollamaVersion: "0.13.5", ...opts });
const dir = join(import.meta.dirname, "fixtures");
const hf = new Template(readFileSync(join(dir, "hf_chat_template.jinja"), "utf8"));
type Req = ChatRequestLike & { messages: Array<Record<string, unknown>>; tools?: unknown[] };
const load = (n: string): Req => JSON.parse(readFileSync(join(dir, "requests", `${n}.json`), "utf8"));
const renderHf = (req: { messages: unknown[]; tools?: unknown[] }, addGenerationPrompt = true): string =>
  hf.render({
    messages: req.messages,
    ...(req.tools ? { tools: req.tools } : {}),
    add_generation_prompt: addGenerationPrompt,
  });
const bytes = (s: string): number => new TextEncoder().encode(s).length;
const toolLines = (s: string): string[] => s.split("\n").filter((l) => l.startsWith('{"type": "function"'));

/** Swaps HF's tool lines for Ollama's, the one difference in any request whose only turn is a user turn. */
function withOllamaToolLines(hfText: string, ollamaText: string): string {
  const ours = toolLines(ollamaText);
  let i = 0;
  return hfText
    .split("\n")
    .map((l) => (l.startsWith('{"type": "function"') ? ours[i++]! : l))
    .join("\n");
}

describe("Ollama vs the HF template", () => {
  it("agree exactly without tools", () => {
    const req = load("no-tools");
    expect(renderChat(req).text).toBe(renderHf(req));
  });

  it("differ only in the tool lines for a single user turn (article request)", () => {
    const req = load("article-turn1");
    const ollama = renderChat(req).text;
    const h = renderHf(req);
    expect(h).not.toBe(ollama);
    expect(withOllamaToolLines(h, ollama)).toBe(ollama);
    // HF dumps the whole client tool (client key order, Python spacing, additionalProperties kept).
    expect(toolLines(h)[0]).toBe(
      '{"type": "function", "function": {"name": "append", "description": "Append content to the end of the file", "parameters": {"type": "object", "properties": {"content": {"type": "string", "description": "Content that gets appended"}}, "required": ["content"], "additionalProperties": false}}}',
    );
    expect(toolLines(ollama)[0]).toBe(
      '{"type": "function", "function": {"name":"append","description":"Append content to the end of the file","parameters":{"type":"object","required":["content"],"properties":{"content":{"type":"string","description":"Content that gets appended"}}}}}',
    );
  });

  it("reproduces the reference's worked example sizes: 938 (HF), 916 (Ollama 0.13.x), 855 (Ollama ≥ 0.14)", () => {
    const req = {
      model: "qwen2.5:7b",
      messages: [{ role: "user", content: "What is the weather in Paris?" }],
      tools: [
        {
          type: "function",
          function: {
            name: "get_current_weather",
            description: "Get the current weather for a location",
            parameters: {
              type: "object",
              properties: {
                location: { type: "string", description: "The city and country, e.g. Paris, France" },
                unit: { type: "string", description: "Temperature unit", enum: ["celsius", "fahrenheit"] },
              },
              required: ["location"],
            },
          },
        },
      ],
    };
    expect(bytes(renderHf(req))).toBe(938);
    expect(bytes(renderChat(req, { ollamaVersion: "0.13.5" }).text)).toBe(916);
    expect(bytes(renderChat(req, { ollamaVersion: "0.14.0" }).text)).toBe(855);
  });

  it("differ in argument JSON spacing and key order in assistant tool calls", () => {
    const req = load("article-turn2");
    const ollama = renderChat(req).text;
    const h = withOllamaToolLines(renderHf(req), ollama);
    expect(h).toContain('{"name": "append", "arguments": {"content": "buy milk"}}');
    expect(h.replace('{"content": "buy milk"}', '{"content":"buy milk"}')).toBe(ollama);
  });

  it("HF gives each call its own <tool_call> block and groups tool results; Ollama does the opposite", () => {
    const req = load("several-tool-calls");
    const ollama = renderChat(req).text;
    const h = renderHf(req);
    expect(h).toContain(
      '<|im_start|>assistant\n<tool_call>\n{"name": "update", "arguments": {"search": "eggs", "replace": "oat milk"}}\n</tool_call>\n<tool_call>\n{"name": "append", "arguments": {"content": "bread"}}\n</tool_call><|im_end|>\n',
    );
    expect(ollama).toContain(
      '<|im_start|>assistant\n<tool_call>\n{"name": "update", "arguments": {"replace":"oat milk","search":"eggs"}}\n{"name": "append", "arguments": {"content":"bread"}}\n</tool_call><|im_end|>\n',
    );
    expect(h).toContain(
      "<|im_start|>user\n<tool_response>\nSuccess\n</tool_response>\n<tool_response>\nSuccess\n</tool_response><|im_end|>\n",
    );
    expect(ollama).toContain(
      "<|im_start|>user\n<tool_response>\nSuccess\n</tool_response><|im_end|>\n<|im_start|>user\n<tool_response>\nSuccess\n</tool_response><|im_end|>\n",
    );
  });

  it("HF renders a later system message in place; Ollama joins it into the header", () => {
    const req = load("several-system-messages");
    const ollama = renderChat(req).text;
    const h = renderHf(req);
    expect(h).toContain("<|im_start|>system\nAnswer in one short sentence.<|im_end|>\n");
    expect(h.startsWith("<|im_start|>system\nYou manage a notes file.\n\n# Tools")).toBe(true);
    expect(
      ollama.startsWith("<|im_start|>system\nYou manage a notes file.\n\nAnswer in one short sentence.\n\n# Tools"),
    ).toBe(true);
    expect(ollama).not.toContain("<|im_start|>system\nAnswer");
  });

  it("HF closes a trailing assistant message; Ollama leaves it open for the model to continue", () => {
    const req = load("trailing-assistant");
    expect(renderHf(req, false).endsWith("Sure, I will<|im_end|>\n")).toBe(true);
    expect(renderChat(req).text.endsWith("<|im_start|>assistant\nSure, I will")).toBe(true);
  });

  it("HF keeps consecutive user turns and renders tool calls next to content; Ollama merges and drops the calls", () => {
    const req = load("consecutive-and-content-with-calls");
    const ollama = renderChat(req).text;
    const h = renderHf({
      messages: req.messages.map((m) => ({ ...m, role: String(m.role).toLowerCase() })),
      tools: req.tools ?? [],
    });
    expect(h).toContain("<|im_start|>user\nAdd buy milk<|im_end|>\n<|im_start|>user\nand bread<|im_end|>\n");
    expect(h).toContain('<|im_start|>assistant\nAdding both now.\n<tool_call>\n{"name": "append"');
    expect(ollama).toContain(
      "<|im_start|>user\nAdd buy milk\n\nand bread<|im_end|>\n<|im_start|>assistant\nAdding both now.<|im_end|>\n",
    );
  });

  it("HF keeps < > & raw in tool JSON; Ollama escapes them like Go's json.Marshal", () => {
    const req = load("escaping");
    const h = toolLines(renderHf(req))[0]!;
    const o = toolLines(renderChat(req).text)[0]!;
    expect(h).toContain('"Append <text> & notes > \\"quoted\\"');
    expect(o).toContain(
      '"Append \\u003ctext\\u003e \\u0026 notes \\u003e \\"quoted\\" \'single\' — café, 中文, emoji 🎉, line\\u2028sep"',
    );
  });
});
