/**
 * The members of a JSON object body, found in its bytes without parsing or decoding them: each key and the
 * byte range of its value (and, for an array, how many items it holds). The recorder parses only the members
 * it reads (a model request's messages, model, stream, metadata) and leaves the rest (an agent's tool
 * definitions, most of its request) as bytes until something asks. Strings are skipped with indexOf (native),
 * so the cost is in the structure, not in the text. Depth is counted here as tryParseJson counts it, so no
 * member is handed to a parser nested deeper than the limit.
 */
import { DEFAULT_MAX_DEPTH } from "@hopscope/shared/json/parse";

export interface JsonMember {
  key: string;
  /** The value's bytes: [start, end). */
  start: number;
  end: number;
  /** Items of an array value (0 for anything else). */
  items: number;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_CURLY = 0x7b;
const CLOSE_CURLY = 0x7d;
const OPEN_SQUARE = 0x5b;
const CLOSE_SQUARE = 0x5d;

function isSpace(c: number | undefined): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}

function skipSpace(b: Buffer, i: number): number {
  while (isSpace(b[i])) i++;
  return i;
}

/** The offset after the `"` that closes the string whose content starts at `from`; -1 when it never closes. */
function stringEnd(b: Buffer, from: number): number {
  for (let q = b.indexOf(QUOTE, from); q !== -1; q = b.indexOf(QUOTE, q + 1)) {
    let backslashes = 0;
    while (b[q - 1 - backslashes] === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return q + 1;
  }
  return -1;
}

/** Where the array or object opening at `i` closes (the offset after it), and its items; null when it is cut or too deep. */
function containerEnd(b: Buffer, i: number, maxDepth: number): { end: number; items: number } | null {
  let depth = 0;
  let items = 0;
  let empty = true;
  for (let j = i; j < b.length; j++) {
    const c = b[j] as number;
    if (c === QUOTE) {
      j = stringEnd(b, j + 1) - 1;
      if (j < 0) return null;
      empty = false;
    } else if (c === OPEN_CURLY || c === OPEN_SQUARE) {
      if (++depth > maxDepth) return null;
      if (depth > 1) empty = false;
    } else if (c === CLOSE_CURLY || c === CLOSE_SQUARE) {
      if (--depth === 0) return { end: j + 1, items: empty ? 0 : items + 1 };
    } else if (depth === 1 && c === COMMA) items++;
    else if (!isSpace(c)) empty = false;
  }
  return null;
}

/** Where the value starting at `i` ends, and its items; null when it is cut or too deep. */
function valueEnd(b: Buffer, i: number, maxDepth: number): { end: number; items: number } | null {
  const c = b[i];
  if (c === QUOTE) {
    const end = stringEnd(b, i + 1);
    return end === -1 ? null : { end, items: 0 };
  }
  if (c === OPEN_CURLY || c === OPEN_SQUARE) {
    const r = containerEnd(b, i, maxDepth);
    return r && (c === OPEN_SQUARE ? r : { end: r.end, items: 0 });
  }
  let j = i;
  while (j < b.length && b[j] !== COMMA && b[j] !== CLOSE_CURLY && !isSpace(b[j])) j++;
  return j === i ? null : { end: j, items: 0 };
}

/**
 * The members of the JSON object `b` holds, in order; null when it is not an object or its structure is
 * broken or nested deeper than `maxDepth` (the caller then parses it whole, which says why). Values are
 * not checked beyond their extent: a member's parse may still fail.
 */
export function jsonMembers(b: Buffer, maxDepth = DEFAULT_MAX_DEPTH): JsonMember[] | null {
  let i = skipSpace(b, 0);
  if (b[i] !== OPEN_CURLY) return null;
  i = skipSpace(b, i + 1);
  const members: JsonMember[] = [];
  if (b[i] === CLOSE_CURLY) return skipSpace(b, i + 1) === b.length ? members : null;
  for (;;) {
    if (b[i] !== QUOTE) return null;
    const keyEnd = stringEnd(b, i + 1);
    if (keyEnd === -1) return null;
    const key = keyOf(b, i, keyEnd);
    i = skipSpace(b, keyEnd);
    if (key === null || b[i] !== COLON) return null;
    const start = skipSpace(b, i + 1);
    const value = valueEnd(b, start, maxDepth - 1);
    if (!value) return null;
    members.push({ key, start, end: value.end, items: value.items });
    i = skipSpace(b, value.end);
    if (b[i] === COMMA) i = skipSpace(b, i + 1);
    else if (b[i] === CLOSE_CURLY) return skipSpace(b, i + 1) === b.length ? members : null;
    else return null;
  }
}

/** A key as JSON.parse reads it (escapes included); null when it is not a valid string. */
function keyOf(b: Buffer, start: number, end: number): string | null {
  const raw = b.toString("utf8", start, end);
  if (!raw.includes("\\")) return raw.slice(1, -1);
  try {
    const key: unknown = JSON.parse(raw);
    return typeof key === "string" ? key : null;
  } catch {
    return null;
  }
}
