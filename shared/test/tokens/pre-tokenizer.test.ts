/**
 * The pre-tokenizer as llama.cpp cuts text for qwen2 (LLAMA_VOCAB_PRE_TYPE_QWEN2 with Unicode White_Space as
 * `\s`), and `</s>` per Ollama family. Expected splits are derived by hand from the regex and llama.cpp's
 * whitespace set (unicode_set_whitespace: U+0085 in, U+FEFF out); the ids then follow from Qwen's vocabulary.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { END_OF_SENTENCE, LLAMA_WHITESPACE, qwenPreTokenize } from "@hopscope/shared/tokens/pre-tokenizer";
import { loadQwenTokenizer, type QwenTokenizer } from "@hopscope/shared/tokens/qwen";

/** Unicode 15's White_Space property, code point by code point. */
const WHITE_SPACE = [
  0x9,
  0xa,
  0xb,
  0xc,
  0xd,
  0x20,
  0x85,
  0xa0,
  0x1680,
  ...Array.from({ length: 11 }, (_, i) => 0x2000 + i),
  0x2028,
  0x2029,
  0x202f,
  0x205f,
  0x3000,
];

describe("llama.cpp's whitespace", () => {
  const ws = new RegExp(`^[${LLAMA_WHITESPACE}]$`, "u");
  it("is Unicode White_Space: 25 code points, U+0085 in and U+FEFF out", () => {
    const members = [];
    for (let cp = 0; cp <= 0xffff; cp++) if (ws.test(String.fromCodePoint(cp))) members.push(cp);
    expect(members).toEqual(WHITE_SPACE);
    expect(ws.test("\u0085")).toBe(true);
    expect(ws.test("\ufeff")).toBe(false);
    // JavaScript's \s is the other way round: that is the bug this fixes.
    expect(/\s/u.test("\u0085")).toBe(false);
    expect(/\s/u.test("\ufeff")).toBe(true);
  });
});

describe("qwenPreTokenize", () => {
  it.each([
    // U+0085 is whitespace: it ends the punctuation run and starts the next letter run as its prefix.
    ["a. \u0085b", ["a", ".", " ", "\u0085b"]],
    ["x  \u0085y", ["x", "  ", "\u0085y"]],
    ["!\u0085", ["!", "\u0085"]],
    ["hi\u0085\u0085\n", ["hi", "\u0085\u0085\n"]],
    // U+FEFF is not whitespace: after a space it is punctuation-like, " ?[^\s\p{L}\p{N}]+".
    ["a \ufeffb", ["a", " \ufeff", "b"]],
    [" \ufeffhello", [" \ufeff", "hello"]],
    ["ok \ufeff\ufeff!", ["ok", " \ufeff\ufeff!"]],
    // Ordinary text is cut as before: contractions in ASCII only, digits one by one.
    ["it's 2026\n\n  ok", ["it", "'s", " ", "2", "0", "2", "6", "\n\n", " ", " ok"]],
    ["DON'T ſ", ["DON", "'T", " ſ"]],
  ])("%j → %j", (text, pieces) => {
    expect(qwenPreTokenize(text)).toEqual(pieces);
    expect(qwenPreTokenize(text).join("")).toBe(text);
  });
});

describe("tokens of the whitespace characters", () => {
  let tok: QwenTokenizer;
  beforeAll(async () => {
    tok = await loadQwenTokenizer("0.13.5");
  });
  it("U+FEFF after a space is the one token ' \\ufeff' (75780), not a space and a BOM", () => {
    expect(tok.encode("a \ufeffb")).toEqual([64, 75780, 65]);
    expect(tok.count(" \ufeffhello")).toBe(2);
  });
  it("U+0085 after a space does not merge into the punctuation before it", () => {
    // "." | " " | "\u0085b": the NEL's two bytes are byte tokens, the space stays alone (220).
    expect(tok.encode("a. \u0085b")).toEqual([64, 13, 220, 126, 227, 65]);
    expect(tok.pieces(tok.encode("x  \u0085y"))).toEqual(["x", "  ", "<0xC2>", "<0x85>", "y"]);
  });
  it("no token crosses a pre-tokenizer boundary", () => {
    for (const text of ["a. \u0085b", "a \ufeffb", "ok \ufeff\ufeff!", "x\u2028\u2029 y\u3000z"]) {
      const ids = qwenPreTokenize(text).flatMap((piece) => tok.encode(piece));
      expect(tok.encode(text)).toEqual(ids);
    }
  });
});

describe("</s> per Ollama family", () => {
  it("is three ordinary tokens up to 0.25 (llama.cpp ec98e2002) and one control token from 0.30 (llama-server)", async () => {
    for (const v of ["0.13.5", "0.14.0", "0.20.0", "0.24.0", "0.25.0-rc0"]) {
      // "a" | "</" | "s" | ">b": the pre-tokenizer's pieces, each one vocabulary entry.
      expect((await loadQwenTokenizer(v)).encode("a</s>b"), v).toEqual([64, 522, 82, 51407]);
    }
    for (const v of ["0.30.0-rc0", "0.30.0", "0.32.15", "0.33.0-rc2"]) {
      const tok = await loadQwenTokenizer(v);
      expect(tok.encode("a</s>b"), v).toEqual([64, END_OF_SENTENCE.id, 65]);
      expect(tok.encode("</s></s>")).toEqual([128247, 128247]);
      expect(tok.pieces([END_OF_SENTENCE.id])).toEqual(["</s>"]);
      expect(tok.decode(tok.encode("x </s>\n<|im_end|>"))).toBe("x </s>\n<|im_end|>");
    }
  });
  it("leaves other text alone and rejects a string that is not a version", async () => {
    const old = await loadQwenTokenizer("0.13.5");
    const today = await loadQwenTokenizer("0.32.15");
    expect(today.encode("<|im_start|>user\n</ s><|im_end|>")).toEqual(old.encode("<|im_start|>user\n</ s><|im_end|>"));
    await expect(async () => loadQwenTokenizer("latest")).rejects.toThrow(/not an Ollama version/);
  });
});

describe("Qwen3's vocabulary (families qwen3, qwen3moe)", () => {
  it("has Qwen2.5's ids plus the four tokens Qwen3 added, with the same llama.cpp rules", async () => {
    const q3 = await loadQwenTokenizer("0.32.15", "qwen3");
    const q25 = await loadQwenTokenizer("0.32.15");
    expect(q3.encode("<tool_response>\nok\n</tool_response>")).toEqual([151665, 198, 562, 198, 151666]);
    expect(q3.encode("<think>\n\n</think>")).toEqual([151667, 271, 151668]);
    expect(q25.encode("<think>").length).toBeGreaterThan(1);
    const prompt = "<|im_start|>user\nAdd buy milk to my notes a \ufeffb</s><|im_end|>\n<|im_start|>assistant\n";
    expect(q3.encode(prompt)).toEqual(q25.encode(prompt));
    expect((await loadQwenTokenizer("0.13.5", "qwen3")).encode("a</s>b")).toEqual([64, 522, 82, 51407]);
    expect(q3.decode([151668])).toBe("</think>");
    expect(() => q3.decode([151669])).toThrow(/151669 is not in Qwen3's vocabulary/);
    expect(() => q25.decode([151665])).toThrow(/not in Qwen2.5's vocabulary/);
  });
});
