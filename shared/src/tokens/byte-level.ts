/**
 * Byte-level BPE display helpers for ./qwen.ts. Qwen's vocabulary (like GPT-2's) spells each byte as a
 * printable character (`Ġ` is a space, `Ċ` a newline); a token can end in the middle of a UTF-8 sequence,
 * so one token is not always text. These helpers turn a vocabulary entry into what a learner can read.
 */

/** GPT-2's `bytes_to_unicode` inverted: vocabulary character → byte. */
function buildByteDecoder(): Map<string, number> {
  const printable: number[] = [];
  for (let b = 0x21; b <= 0x7e; b++) printable.push(b);
  for (let b = 0xa1; b <= 0xac; b++) printable.push(b);
  for (let b = 0xae; b <= 0xff; b++) printable.push(b);
  const decoder = new Map<string, number>();
  let shifted = 0;
  for (let b = 0; b < 256; b++) {
    const char = printable.includes(b) ? b : 256 + shifted++;
    decoder.set(String.fromCodePoint(char), b);
  }
  return decoder;
}

const BYTE_DECODER = buildByteDecoder();

/** GPT-2's `bytes_to_unicode`: the vocabulary character of each byte, by byte. */
export const BYTE_CHARS: readonly string[] = (() => {
  const chars: string[] = [];
  for (const [char, b] of BYTE_DECODER) chars[b] = char;
  return chars;
})();

/** The bytes a byte-level vocabulary entry stands for; null if it is not byte-level (an added token). */
export function vocabBytes(entry: string): number[] | null {
  const bytes: number[] = [];
  for (const char of entry) {
    const b = BYTE_DECODER.get(char);
    if (b === undefined) return null;
    bytes.push(b);
  }
  return bytes;
}

/** Length of the valid UTF-8 sequence starting at `i`, or 0 if none starts there. */
function sequenceLength(bytes: readonly number[], i: number): number {
  const lead = bytes[i]!;
  const [length, min, max] =
    lead < 0x80
      ? [1, 0, 0]
      : lead >= 0xc2 && lead <= 0xdf
        ? [2, 0x80, 0xbf]
        : lead === 0xe0
          ? [3, 0xa0, 0xbf]
          : lead === 0xed
            ? [3, 0x80, 0x9f]
            : lead >= 0xe1 && lead <= 0xef
              ? [3, 0x80, 0xbf]
              : lead === 0xf0
                ? [4, 0x90, 0xbf]
                : lead >= 0xf1 && lead <= 0xf3
                  ? [4, 0x80, 0xbf]
                  : lead === 0xf4
                    ? [4, 0x80, 0x8f]
                    : [0, 0, 0];
  if (length <= 1) return length;
  if (i + length > bytes.length) return 0;
  const second = bytes[i + 1]!;
  if (second < min || second > max) return 0;
  for (let k = 2; k < length; k++) if ((bytes[i + k]! & 0xc0) !== 0x80) return 0;
  return length;
}

/**
 * Bytes as text where they are valid UTF-8, and `<0xE2>` for each byte that is not (a character split
 * between tokens), as llama.cpp names byte tokens.
 *
 * @example bytesToDisplay([0x20, 0x68, 0x69]) === " hi"
 * @example bytesToDisplay([0xf0, 0x9f]) === "<0xF0><0x9F>"
 */
export function bytesToDisplay(bytes: readonly number[]): string {
  let out = "";
  for (let i = 0; i < bytes.length;) {
    const length = sequenceLength(bytes, i);
    if (length === 0) {
      out += `<0x${bytes[i]!.toString(16).toUpperCase().padStart(2, "0")}>`;
      i++;
      continue;
    }
    let cp = length === 1 ? bytes[i]! : bytes[i]! & (0xff >> (length + 1));
    for (let k = 1; k < length; k++) cp = (cp << 6) | (bytes[i + k]! & 0x3f);
    out += String.fromCodePoint(cp);
    i += length;
  }
  return out;
}
