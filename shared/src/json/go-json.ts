/**
 * Go's `encoding/json` output, byte for byte: the one encoder for every place that must produce what an
 * Ollama server sends or renders (response bodies and chunks, tool JSON inside prompts). Compact, HTML-safe
 * (`<` `>` `&` U+2028 U+2029 escaped, so a body holding `<tool_call>` reads `\u003ctool_call\u003e` on the
 * wire), numbers as float64 in ES6 style. Go writes a struct's fields in declaration order and a map's keys
 * sorted by their UTF-8 bytes; `goJson` and `goJsonSorted` are those two choices.
 */

const HEX = "0123456789abcdef";

/**
 * encoding/json's escape for each ASCII character that has one: `"` and `\\`, the control characters (with
 * the short forms Go uses), and `<` `>` `&` (EscapeHTML).
 */
const ASCII_ESCAPES = new Array<string | undefined>(0x80).fill(undefined);
for (let c = 0; c < 0x20; c++) ASCII_ESCAPES[c] = "\\u00" + HEX[c >> 4] + HEX[c & 15];
for (const c of [0x3c, 0x3e, 0x26]) ASCII_ESCAPES[c] = "\\u00" + HEX[c >> 4] + HEX[c & 15];
const SHORT_ESCAPES: Array<[number, string]> = [
  [0x22, '\\"'],
  [0x5c, "\\\\"],
  [0x08, "\\b"],
  [0x0c, "\\f"],
  [0x0a, "\\n"],
  [0x0d, "\\r"],
  [0x09, "\\t"],
];
for (const [c, escape] of SHORT_ESCAPES) ASCII_ESCAPES[c] = escape;

const isLowSurrogate = (c: number): boolean => c >= 0xdc00 && c <= 0xdfff;

/** A Go string literal as encoding/json writes it (json.Marshal, which sets EscapeHTML). */
export function goJsonString(s: string): string {
  let out = '"';
  // Characters from `copied` on are written as they are, in one piece, when an escape or the end comes.
  let copied = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    let escape: string | undefined;
    if (c < 0x80) escape = ASCII_ESCAPES[c];
    else if (c === 0x2028 || c === 0x2029) escape = c === 0x2028 ? "\\u2028" : "\\u2029";
    else if (c >= 0xd800 && c <= 0xdfff) {
      if (c <= 0xdbff && isLowSurrogate(s.charCodeAt(i + 1))) {
        i++;
        continue;
      }
      // Go replaces invalid UTF-8 with U+FFFD; a lone surrogate is what JS has instead.
      escape = "\ufffd";
    }
    if (escape === undefined) continue;
    out += s.slice(copied, i) + escape;
    copied = i + 1;
  }
  return out + s.slice(copied) + '"';
}

/**
 * A float64 as encoding/json writes it. Go chose the ES6 number-to-string rules on purpose, so JavaScript's
 * own formatting matches, except for negative zero, which Go keeps.
 */
export function goJsonNumber(n: number): string {
  if (!Number.isFinite(n)) throw new Error(`json: unsupported value: ${n} (Go cannot marshal NaN or Infinity)`);
  if (Object.is(n, -0)) return "-0";
  return String(n);
}

/** Go's map key order: by UTF-8 bytes (which is not JavaScript's UTF-16 order above U+FFFF). */
export function compareGoKeys(a: string, b: string): number {
  const x = encoder.encode(a);
  const y = encoder.encode(b);
  const n = Math.min(x.length, y.length);
  for (let i = 0; i < n; i++) if (x[i] !== y[i]) return x[i]! - y[i]!;
  return x.length - y.length;
}

const encoder = new TextEncoder();

/**
 * `json.Marshal(value)` of a Go struct modelled as a plain object: keys in the object's order (build
 * objects in Go struct order). Properties set to `undefined` are left out, as Go's `omitempty` leaves an
 * unset field.
 *
 * @example goJson({ content: "<b>" }) === '{"content":"\\u003cb\\u003e"}'
 */
export function goJson(value: unknown): string {
  return encode(value, false);
}

/** `json.Marshal` of a decoded JSON value (Go `any`: map[string]any, []any, …): object keys sorted at every level. */
export function goJsonSorted(value: unknown): string {
  return encode(value, true);
}

function encode(x: unknown, sorted: boolean): string {
  if (x === null) return "null";
  switch (typeof x) {
    case "boolean":
      return x ? "true" : "false";
    case "number":
      return goJsonNumber(x);
    case "string":
      return goJsonString(x);
    case "object":
      break;
    default:
      throw new Error(`json: unsupported type: ${typeof x} (only JSON values can be marshalled)`);
  }
  if (Array.isArray(x)) return "[" + x.map((v) => (v === undefined ? "null" : encode(v, sorted))).join(",") + "]";
  const o = x as Record<string, unknown>;
  const keys = Object.keys(o).filter((k) => o[k] !== undefined);
  if (sorted) keys.sort(compareGoKeys);
  return "{" + keys.map((k) => goJsonString(k) + ":" + encode(o[k], sorted)).join(",") + "}";
}
