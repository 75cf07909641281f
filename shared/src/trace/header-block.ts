/**
 * Header fields as one string, "Name: value\r\n" per field, names, order and repeats as received: how tap
 * events carry them across threads and how the recorder stores a live exchange's headers. One string is far
 * cheaper to clone, keep and store than an array of pairs, and the recording thread stores it without
 * building, redacting and re-serialising pairs for each exchange.
 *
 * Unambiguous for what the taps record: llhttp refuses CR and LF inside names and values, names are tokens
 * (no ':'), and values have no leading white space; values are latin1 strings of their bytes either way.
 * Headers from anywhere else (imports, replays) stay pairs.
 */
import { REDACTED, isSecretHeader, mayNameSecretHeader } from "./redact";

/** From Node's raw form ([name, value, name, value, …]). */
export function toHeaderBlock(flat: readonly string[]): string {
  let out = "";
  for (let i = 0; i + 1 < flat.length; i += 2) out += `${flat[i]}: ${flat[i + 1]}\r\n`;
  return out;
}

export function fromHeaderBlock(block: string): [string, string][] {
  const out: [string, string][] = [];
  let at = 0;
  while (at < block.length) {
    const end = lineEnd(block, at);
    const colon = block.indexOf(": ", at);
    // A line without ": " (never written by toHeaderBlock) is a name with an empty value.
    if (colon === -1 || colon > end) out.push([block.slice(at, end), ""]);
    else out.push([block.slice(at, colon), block.slice(colon + 2, end)]);
    at = end + 2;
  }
  return out;
}

/** The first value of a header by case-insensitive name, read from the block without splitting it. */
export function blockHeaderValue(block: string, name: string): string | undefined {
  const n = name.length;
  let at = 0;
  while (at < block.length) {
    const end = lineEnd(block, at);
    if (block.charCodeAt(at + n) === COLON && block.charCodeAt(at + n + 1) === SPACE && sameName(block, at, name))
      return block.slice(at + n + 2, end);
    at = end + 2;
  }
  return undefined;
}

/** The block with the value of every secret header (redact.ts's rule) replaced; the same string when none is. */
export function redactHeaderBlock(block: string): string {
  if (!mayNameSecretHeader(block)) return block;
  let out = "";
  for (const [k, v] of fromHeaderBlock(block)) out += `${k}: ${isSecretHeader(k) ? REDACTED : v}\r\n`;
  return out;
}

/** Where the line starting at `at` ends (a block read back from storage may lack its last CRLF). */
function lineEnd(block: string, at: number): number {
  const end = block.indexOf("\r\n", at);
  return end === -1 ? block.length : end;
}

const COLON = 58;
const SPACE = 32;

/** ASCII case-insensitive comparison of the name at `at` with `name` (header names are ASCII tokens). */
function sameName(block: string, at: number, name: string): boolean {
  for (let i = 0; i < name.length; i++) {
    const a = block.charCodeAt(at + i);
    const b = name.charCodeAt(i);
    if (a !== b && (a | 0x20) !== (b | 0x20)) return false;
  }
  return true;
}
