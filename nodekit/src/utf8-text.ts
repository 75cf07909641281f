/**
 * UTF-8 bytes to a string, as Buffer#toString("utf8") gives it, for text that is mostly ASCII with some
 * other characters (JSON from agents and models). Node 20's decoder costs many times more per byte
 * once a text holds a single non-ASCII character; blocks that are all ASCII are copied as one-byte text
 * instead (checked natively), and only the others go through the decoder. Blocks end before a lead or
 * ASCII byte, never inside a character, so invalid bytes decode as they would whole.
 */
import { isAscii } from "node:buffer";

const BLOCK = 1024;

export function utf8Text(bytes: Buffer, start = 0, end = bytes.length): string {
  if (end - start <= BLOCK || isAscii(bytes.subarray(start, end))) return bytes.toString("utf8", start, end);
  let text = "";
  for (let from = start; from < end;) {
    let to = Math.min(from + BLOCK, end);
    while (to < end && (bytes[to]! & 0xc0) === 0x80) to++;
    text += isAscii(bytes.subarray(from, to)) ? bytes.toString("latin1", from, to) : bytes.toString("utf8", from, to);
    from = to;
  }
  return text;
}
