/**
 * The one JSON parse for untrusted text (request bodies, imported files, recorded bodies): depth- and
 * size-limited, so a 100,000-deep `[[[[…` is refused with a clear error before anything recursive (zod,
 * a reviver, a renderer) walks it into "Maximum call stack size exceeded". The depth is counted by one
 * linear scan outside strings, then the text goes to JSON.parse; valid JSON under the limits parses
 * exactly as JSON.parse parses it.
 */

/** Nesting deeper than any real request, trace file or tool argument; far below the stack's limit. */
export const DEFAULT_MAX_DEPTH = 1000;

/** Go's encoding/json `maxNestingDepth`: what Ollama's server and its tool-call parser accept. */
export const GO_MAX_DEPTH = 10_000;

export interface JsonLimits {
  /** Deepest nesting of arrays and objects accepted (`[]` is depth 1). */
  maxDepth?: number;
  /** Longest text accepted, in UTF-16 code units (callers cap bytes when they read the body). */
  maxLength?: number;
}

export class JsonLimitError extends Error {
  override readonly name = "JsonLimitError";
  constructor(
    readonly limit: "depth" | "length",
    /** The limit that was passed. */
    readonly max: number,
    /** For depth: the offset of the bracket that went past it; for length: the text's length. */
    readonly at: number,
    /** The bracket character that went too deep (`[` or `{`), for messages in another parser's words. */
    readonly char: string,
  ) {
    super(
      limit === "depth"
        ? `JSON nested deeper than ${max} levels (at character ${at}); flatten the data`
        : `JSON text of ${at} characters is longer than the limit of ${max}`,
    );
  }
}

const BACKSLASH = 92;
const OPEN_SQUARE = 91;
const OPEN_CURLY = 123;
const CLOSE_SQUARE = 93;
const CLOSE_CURLY = 125;

/**
 * Offset of the first `[`/`{` that nests deeper than `maxDepth` (outside strings), or -1. Strings are
 * skipped with indexOf (native), so the cost is in the structure, not in the text: this runs on every
 * recorded body the classifiers read.
 */
export function depthExceededAt(text: string, maxDepth: number): number {
  // Going past maxDepth takes more than maxDepth opening brackets, hence more characters.
  if (text.length <= maxDepth) return -1;
  let depth = 0;
  let i = 0;
  const n = text.length;
  while (i < n) {
    const quote = text.indexOf('"', i);
    const end = quote === -1 ? n : quote;
    for (; i < end; i++) {
      const c = text.charCodeAt(i);
      if (c === OPEN_SQUARE || c === OPEN_CURLY) {
        if (++depth > maxDepth) return i;
      } else if (c === CLOSE_SQUARE || c === CLOSE_CURLY) depth--;
    }
    if (quote === -1) break;
    i = stringEnd(text, quote + 1);
  }
  return -1;
}

/** The offset after the `"` that closes the string starting at `from` (an odd run of backslashes escapes it). */
function stringEnd(text: string, from: number): number {
  for (let q = text.indexOf('"', from); q !== -1; q = text.indexOf('"', q + 1)) {
    let backslashes = 0;
    while (text.charCodeAt(q - 1 - backslashes) === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return q + 1;
  }
  return text.length;
}

/** Throws JsonLimitError when `text` is over a limit (without parsing it). */
export function checkJsonLimits(text: string, limits: JsonLimits = {}): void {
  const maxLength = limits.maxLength ?? Infinity;
  if (text.length > maxLength) throw new JsonLimitError("length", maxLength, text.length, "");
  const maxDepth = limits.maxDepth ?? DEFAULT_MAX_DEPTH;
  const at = depthExceededAt(text, maxDepth);
  if (at !== -1) throw new JsonLimitError("depth", maxDepth, at, text[at] ?? "[");
}

/** JSON.parse under limits: throws JsonLimitError over a limit, SyntaxError for text that is not JSON. */
export function parseJson(text: string, limits: JsonLimits = {}): unknown {
  checkJsonLimits(text, limits);
  return JSON.parse(text) as unknown;
}

/**
 * parseJson for recorded bytes, which may be anything: `undefined` for empty text, text that is not JSON
 * and text nested too deep (the depth limit keeps the classifiers off the stack's limit). The caller
 * reads what it can; the raw bytes stay stored.
 */
export function tryParseJson(text: string | null | undefined): unknown {
  if (text === null || text === undefined || text.trim() === "") return undefined;
  try {
    return parseJson(text);
  } catch {
    return undefined;
  }
}
