/**
 * Go's encoding/json output, byte for byte, for the values Ollama marshals into prompts: compact, HTML-safe
 * (`<` `>` `&` U+2028 U+2029 escaped), map keys sorted, numbers as float64 in ES6 style.
 */
import { type GoValue, sortedEntries } from "./gotemplate/values";

const HEX = "0123456789abcdef";

/** A Go string literal as encoding/json writes it (json.Marshal, which sets EscapeHTML). */
export function goJsonString(s: string): string {
  let out = '"';
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        out += s[i]! + s[i + 1]!;
        i++;
      } else out += "\ufffd"; // Go replaces invalid UTF-8 with U+FFFD; a lone surrogate is what JS has instead
      continue;
    }
    if (c >= 0xdc00 && c <= 0xdfff) {
      out += "\ufffd";
      continue;
    }
    switch (c) {
      case 0x22:
        out += '\\"';
        break;
      case 0x5c:
        out += "\\\\";
        break;
      case 0x08:
        out += "\\b";
        break;
      case 0x0c:
        out += "\\f";
        break;
      case 0x0a:
        out += "\\n";
        break;
      case 0x0d:
        out += "\\r";
        break;
      case 0x09:
        out += "\\t";
        break;
      case 0x3c:
      case 0x3e:
      case 0x26:
        out += "\\u00" + HEX[c >> 4] + HEX[c & 15];
        break;
      case 0x2028:
        out += "\\u2028";
        break;
      case 0x2029:
        out += "\\u2029";
        break;
      default:
        out += c < 0x20 ? "\\u00" + HEX[c >> 4] + HEX[c & 15] : s[i];
    }
  }
  return out + '"';
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

/**
 * A decoded JSON value (Go `any`: map[string]any, []any, float64, string, bool, nil) marshalled by Go:
 * object keys sorted at every level.
 */
export function goJsonAny(x: unknown): string {
  if (x === null || x === undefined) return "null";
  if (typeof x === "boolean") return x ? "true" : "false";
  if (typeof x === "number") return goJsonNumber(x);
  if (typeof x === "string") return goJsonString(x);
  if (Array.isArray(x)) return "[" + x.map(goJsonAny).join(",") + "]";
  const keys = sortKeys(Object.keys(x as object));
  return "{" + keys.map((k) => goJsonString(k) + ":" + goJsonAny((x as Record<string, unknown>)[k])).join(",") + "}";
}

/** Go sorts map keys by their UTF-8 bytes. */
export function sortKeys(keys: string[]): string[] {
  const enc = new TextEncoder();
  return [...keys].sort((a, b) => {
    const x = enc.encode(a);
    const y = enc.encode(b);
    const n = Math.min(x.length, y.length);
    for (let i = 0; i < n; i++) if (x[i] !== y[i]) return x[i]! - y[i]!;
    return x.length - y.length;
  });
}

/** json.Marshal of a modelled Go value (used by the `json` template function and by nested marshalling). */
export function marshalGo(v: GoValue): string {
  switch (v.kind) {
    case "invalid":
    case "nil":
      return "null";
    case "bool":
      return v.v ? "true" : "false";
    case "int":
      return String(v.v);
    case "float":
      return goJsonNumber(v.v);
    case "string":
      return v.methods?.json ? v.methods.json() : goJsonString(v.v);
    case "slice":
      if (v.methods?.json) return v.methods.json();
      return v.isNil ? "null" : "[" + v.items.map(marshalGo).join(",") + "]";
    case "map":
      if (v.methods?.json) return v.methods.json();
      if (v.isNil) return "null";
      return (
        "{" +
        sortedEntries(v.entries)
          .map(([k, e]) => goJsonString(k) + ":" + marshalGo(e))
          .join(",") +
        "}"
      );
    case "struct": {
      if (v.methods?.json) return v.methods.json();
      const parts: string[] = [];
      for (const f of v.fields) {
        if (f.json?.omitempty && isEmptyValue(f.value)) continue;
        parts.push(goJsonString(f.json?.name ?? f.name) + ":" + marshalGo(f.value));
      }
      return "{" + parts.join(",") + "}";
    }
    case "ptr":
      return v.elem === null ? "null" : marshalGo(v.elem);
  }
}

/** encoding/json's omitempty test: false, 0, nil, and empty string, slice or map. */
export function isEmptyValue(v: GoValue): boolean {
  switch (v.kind) {
    case "invalid":
    case "nil":
      return true;
    case "bool":
      return !v.v;
    case "int":
    case "float":
      return v.v === 0;
    case "string":
      return v.v === "";
    case "slice":
      return v.items.length === 0;
    case "map":
      return v.entries.length === 0;
    case "struct":
      return false;
    case "ptr":
      return v.elem === null;
  }
}
