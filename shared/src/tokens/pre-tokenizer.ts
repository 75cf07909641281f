/**
 * Qwen2's pre-tokenizer as llama.cpp runs it (the runner of every Ollama that serves qwen2.5), and the one
 * vocabulary rule that depends on the llama.cpp build Ollama bundles. See docs/tokens.md for the sources.
 *
 * The regex is llama.cpp's `LLAMA_VOCAB_PRE_TYPE_QWEN2` (src/llama-vocab.cpp): the Hugging Face pattern with
 * the case-insensitive contractions spelled out in ASCII. Its `\s` is not JavaScript's: llama.cpp tests
 * `unicode_set_whitespace` (src/unicode-data.cpp), which is Unicode's White_Space property — U+0085 (NEXT
 * LINE) is whitespace and U+FEFF (BYTE ORDER MARK) is not, while a JavaScript `\s` says the opposite. So the
 * pattern is written with that set in place of every `\s` and `\S`.
 */

/** Unicode White_Space (25 code points), the set llama.cpp's `\s` matches, as a character-class body. */
export const LLAMA_WHITESPACE =
  "\\t\\n\\u000B\\f\\r \\u0085\\u00A0\\u1680\\u2000-\\u200A\\u2028\\u2029\\u202F\\u205F\\u3000";

const S = `[${LLAMA_WHITESPACE}]`;
const NOT_S = `[^${LLAMA_WHITESPACE}]`;

/** llama.cpp's qwen2 split pattern, with `\s` = Unicode White_Space. */
export const QWEN2_PRE_TOKENIZER_REGEX =
  "(?:'[sS]|'[tT]|'[rR][eE]|'[vV][eE]|'[mM]|'[lL][lL]|'[dD])" +
  "|[^\\r\\n\\p{L}\\p{N}]?\\p{L}+" +
  "|\\p{N}" +
  `| ?[^${LLAMA_WHITESPACE}\\p{L}\\p{N}]+[\\r\\n]*` +
  `|${S}*[\\r\\n]+` +
  `|${S}+(?!${NOT_S})` +
  `|${S}+`;

const SPLIT = new RegExp(QWEN2_PRE_TOKENIZER_REGEX, "gu");

/**
 * The pieces llama.cpp's pre-tokenizer cuts a text into (before byte-level BPE), for a text that holds no
 * special token. What the tokenizer does inside each piece cannot cross a boundary between two of them.
 */
export function qwenPreTokenize(text: string): string[] {
  return Array.from(text.matchAll(SPLIT), (m) => m[0]);
}

/**
 * The `tokenizer.json` pre-tokenizer that makes the Hugging Face (transformers.js) tokenizer cut text as
 * llama.cpp does: the same Split + ByteLevel sequence Qwen ships, with the pattern above.
 */
export const LLAMA_QWEN2_PRE_TOKENIZER = {
  type: "Sequence",
  pretokenizers: [
    { type: "Split", pattern: { Regex: QWEN2_PRE_TOKENIZER_REGEX }, behavior: "Isolated", invert: false },
    { type: "ByteLevel", add_prefix_space: false, trim_offsets: false, use_regex: false },
  ],
} as const;

/** `</s>`: an ordinary BPE entry of Qwen's vocabulary (id 128247), three tokens in Hugging Face's tokenizer. */
export const END_OF_SENTENCE = { text: "</s>", id: 128247 } as const;

/**
 * Token ids of `text`, with every `</s>` one control token. llama.cpp builds from b9048 on (Ollama 0.30+)
 * put `</s>` on their end-of-generation list by its spelling ("control-looking token: 128247 '</s>' was not
 * control-type") and so match it in text like `<|im_end|>`. No added token of Qwen2.5 contains or overlaps
 * `</s>`, so cutting at it first gives what llama.cpp's longest-first partition gives.
 */
export function encodeWithEndOfSentence(text: string, encode: (part: string) => number[]): number[] {
  const parts = text.split(END_OF_SENTENCE.text);
  const ids: number[] = [];
  parts.forEach((part, i) => {
    if (i > 0) ids.push(END_OF_SENTENCE.id);
    // A loop, not `push(...ids)`: a spread passes every id as an argument and overflows the stack at ~100k.
    if (part.length > 0) for (const id of encode(part)) ids.push(id);
  });
  return ids;
}
