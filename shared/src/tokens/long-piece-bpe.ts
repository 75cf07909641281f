/**
 * Byte-level BPE of one long pre-tokenizer piece in O(n log n), with the vocabulary and merges the Hugging Face
 * tokenizer loaded, and exactly its result. A piece is a run of letters, of punctuation or of whitespace (each digit
 * is a piece of its own; ./pre-tokenizer.ts), so a prompt of one long word — a pasted base64 blob, a line of dashes — is one
 * piece. That tokenizer's own merge loop (the same priority queue) makes an object and a JSON key per candidate pair,
 * which is slow on a piece of many kilobytes; this loop works on integer ids in typed arrays.
 *
 * The merge order is llama.cpp's, the tokenizer of every Ollama that serves qwen2.5: `llm_tokenizer_bpe_session::
 * tokenize` and `llm_bigram_bpe::comparator` in `llama/llama.cpp/src/llama-vocab.cpp` (Ollama v0.13.5): each
 * piece starts as one symbol per byte (each byte spelled as its vocabulary character), every adjacent pair with a
 * merge rank is queued, and the pair of lowest rank is merged first, the leftmost on ties; a queued pair whose two
 * symbols have since changed is skipped. Hugging Face's tokenizer (`BPE.bpe` in transformers.js) orders its
 * queue the same way (rank plus the left symbol's position over the length).
 */
import { BYTE_CHARS } from "./byte-level";

/** The merge tables, by token id. */
export interface BpeTables {
  /** The token id of each byte's vocabulary character. */
  byteIds: Int32Array;
  /** Merge rank by pair: `left * ID_SPAN + right`. */
  ranks: Map<number, number>;
  /** The token id each merge (by rank) makes. */
  merged: Int32Array;
}

/** Ids are below this (Qwen's vocabulary is 151,669): a pair of ids is one number. */
const ID_SPAN = 2 ** 18;
/** A queued pair is one number, `rank * POSITION_SPAN + position`: pieces longer than this take the tokenizer's path. */
const POSITION_SPAN = 2 ** 24;
/** The longest piece, in bytes, this loop takes. */
export const MAX_LONG_PIECE_BYTES = POSITION_SPAN - 1;

/**
 * The tables from a tokenizer.json BPE model's merges (`"a b"` or `["a", "b"]`) and its vocabulary; null when
 * a merge or a byte is not in the vocabulary (then every piece takes the tokenizer's own path).
 */
export function bpeTables(
  merges: readonly (string | readonly string[])[],
  vocab: Map<string, number>,
): BpeTables | null {
  const byteIds = new Int32Array(256);
  for (let b = 0; b < 256; b++) {
    const id = vocab.get(BYTE_CHARS[b]!);
    if (id === undefined || id >= ID_SPAN) return null;
    byteIds[b] = id;
  }
  const ranks = new Map<number, number>();
  const merged = new Int32Array(merges.length);
  for (const [rank, merge] of merges.entries()) {
    const [a, b] = typeof merge === "string" ? merge.split(" ", 2) : merge;
    const left = vocab.get(a ?? "");
    const right = vocab.get(b ?? "");
    const both = vocab.get(`${a}${b}`);
    if (left === undefined || right === undefined || both === undefined || Math.max(left, right, both) >= ID_SPAN)
      return null;
    const key = left * ID_SPAN + right;
    // A pair listed twice: llama.cpp keeps its first rank and the Hugging Face tokenizer its last; take neither.
    if (ranks.has(key)) return null;
    ranks.set(key, rank);
    merged[rank] = both;
  }
  return { byteIds, ranks, merged };
}

/** A binary min-heap of numbers (queued pairs), in a typed array that grows. */
class MinHeap {
  private items = new Float64Array(1024);
  size = 0;

  push(x: number): void {
    if (this.size === this.items.length) {
      const bigger = new Float64Array(this.items.length * 2);
      bigger.set(this.items);
      this.items = bigger;
    }
    const h = this.items;
    let i = this.size++;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (h[parent]! <= x) break;
      h[i] = h[parent]!;
      i = parent;
    }
    h[i] = x;
  }

  pop(): number {
    const h = this.items;
    const top = h[0]!;
    const last = h[--this.size]!;
    let i = 0;
    for (;;) {
      let child = 2 * i + 1;
      if (child >= this.size) break;
      if (child + 1 < this.size && h[child + 1]! < h[child]!) child++;
      if (h[child]! >= last) break;
      h[i] = h[child]!;
      i = child;
    }
    h[i] = last;
    return top;
  }
}

/** The token ids of one pre-tokenizer piece, given as its UTF-8 bytes. */
export function encodeLongPiece(bytes: Uint8Array, tables: BpeTables): number[] {
  const n = bytes.length;
  if (n > MAX_LONG_PIECE_BYTES) throw new RangeError(`a piece of ${n} bytes is over ${MAX_LONG_PIECE_BYTES}`);
  if (n === 0) return [];
  const { byteIds, ranks, merged } = tables;
  // Symbols by the position of their first byte; a merged-away symbol has id -1.
  const id = new Int32Array(n);
  const next = new Int32Array(n);
  const prev = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    id[i] = byteIds[bytes[i]!]!;
    next[i] = i + 1 < n ? i + 1 : -1;
    prev[i] = i - 1;
  }
  const queue = new MinHeap();
  const enqueue = (left: number): void => {
    if (left < 0) return;
    const right = next[left]!;
    if (right < 0) return;
    const rank = ranks.get(id[left]! * ID_SPAN + id[right]!);
    if (rank !== undefined) queue.push(rank * POSITION_SPAN + left);
  };
  for (let i = 0; i + 1 < n; i++) enqueue(i);
  while (queue.size > 0) {
    const top = queue.pop();
    const left = top % POSITION_SPAN;
    const rank = (top - left) / POSITION_SPAN;
    const right = next[left]!;
    // Outdated: the left symbol was merged away, or either symbol has changed since the pair was queued.
    if (id[left] === -1 || right < 0 || ranks.get(id[left]! * ID_SPAN + id[right]!) !== rank) continue;
    id[left] = merged[rank]!;
    id[right] = -1;
    next[left] = next[right]!;
    if (next[left]! >= 0) prev[next[left]!] = left;
    enqueue(prev[left]!);
    enqueue(left);
  }
  const out: number[] = [];
  for (let i = 0; i >= 0; i = next[i]!) out.push(id[i]!);
  return out;
}
