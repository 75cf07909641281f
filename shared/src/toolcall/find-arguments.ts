/**
 * `findArguments` of Ollama's `tools` package (tools/tools.go, unchanged from v0.12.7 to HEAD): the first
 * balanced `{…}` in the buffer that decodes as JSON, and inside it the arguments of the call. Used by the
 * parser in ./parser.ts; kept apart because its rules are the subtle part and have their own tests.
 *
 * Go scans bytes and we scan UTF-16 code units. Every character the scan looks at (`{ } " \`) is ASCII,
 * which never occurs inside a multi-byte sequence of either encoding, so offsets differ but decisions don't.
 */
import { GO_MAX_DEPTH, depthExceededAt } from "../json/parse";

/** A decoded JSON object, as Go's `map[string]any`. */
export type JsonObject = Record<string, unknown>;

/**
 * What `findArguments` returns: `args` is Go's map, `null` for Go's nil map (no arguments: no call);
 * `end` is the offset of the object's closing `}` (Go's `i`), 0 when nothing was found.
 */
export interface FoundArguments {
  args: JsonObject | null;
  end: number;
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * `json.Unmarshal(text, &any)` as Go does it, on top of JSON.parse: a number that does not fit a float64
 * (`1e400`) is an error in Go, not Infinity; a lone surrogate escape (`"\ud800"`) becomes U+FFFD.
 * Returns `undefined` when Go would return an error.
 */
export function goUnmarshal(text: string): unknown {
  // encoding/json refuses nesting past 10,000 levels ("exceeded max depth"); so does this, before the reviver recurses.
  if (depthExceededAt(text, GO_MAX_DEPTH) !== -1) return undefined;
  try {
    return JSON.parse(text, (_key, value: unknown) => {
      if (typeof value === "number" && !Number.isFinite(value)) throw new RangeError("number out of float64 range");
      if (typeof value === "string") return value.replace(LONE_SURROGATE, "\uFFFD");
      return value;
    });
  } catch (err) {
    // Not swallowed: "does not decode" is this function's answer, as Go's `err != nil` is.
    if (err instanceof SyntaxError || err instanceof RangeError) return undefined;
    throw err;
  }
}

function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Go's `findMap(name, obj)`: `obj[name]` if it is an object, or a JSON string that decodes as one.
 * A string holding `null` decodes to a nil map without error, so it is "found" with no arguments.
 */
function findMap(name: string, obj: JsonObject): { found: boolean; args: JsonObject | null } {
  if (!Object.hasOwn(obj, name)) return { found: false, args: null };
  const value = obj[name];
  if (isObject(value)) return { found: true, args: value };
  if (typeof value === "string") {
    const decoded = goUnmarshal(value);
    if (decoded === null) return { found: true, args: null };
    if (isObject(decoded)) return { found: true, args: decoded };
  }
  return { found: false, args: null };
}

/**
 * Go's `findObject`: with a "name" key, take "arguments", else "parameters", else nothing (found, nil);
 * otherwise a key equal to the tool's name; otherwise recurse into nested objects and arrays of objects.
 * Go ranges over a map in random order; we follow the JSON order, which is one of Go's possible orders.
 */
function findObject(toolName: string, obj: JsonObject): { found: boolean; args: JsonObject | null } {
  if (Object.hasOwn(obj, "name")) {
    const fromArguments = findMap("arguments", obj);
    if (fromArguments.found) return fromArguments;
    const fromParameters = findMap("parameters", obj);
    if (fromParameters.found) return fromParameters;
    return { found: true, args: null };
  }
  const byName = findMap(toolName, obj);
  if (byName.found) return byName;
  for (const child of Object.values(obj)) {
    const candidates = Array.isArray(child) ? child.filter(isObject) : isObject(child) ? [child] : [];
    for (const candidate of candidates) {
      const result = findObject(toolName, candidate);
      if (result.found) return result;
    }
  }
  return { found: false, args: null };
}

/**
 * The first balanced `{…}` of `buffer` (braces inside strings skipped, backslash escapes honoured even
 * outside strings, as Go's loop does) that decodes; then the arguments inside it, or the whole object when
 * it has no recognisable wrapper. An object that does not decode is skipped and the scan goes on.
 *
 * @example findArguments("get_weather", '{"name": "get_weather", "arguments": {"city": "Oslo"}}')
 *   // → { args: { city: "Oslo" }, end: 53 }
 */
export function findArguments(toolName: string, buffer: string): FoundArguments {
  let start = -1;
  let braces = 0;
  let inString = false;
  let escaped = false;
  for (let i = 0; i < buffer.length; i++) {
    const c = buffer[i];
    if (escaped) {
      escaped = false;
      continue;
    }
    if (c === "\\") {
      escaped = true;
      continue;
    }
    if (c === '"') {
      inString = !inString;
      continue;
    }
    if (inString) continue;
    if (c === "{") {
      if (braces === 0) start = i;
      braces++;
    } else if (c === "}") {
      braces--;
      if (braces === 0 && start !== -1) {
        const data = goUnmarshal(buffer.slice(start, i + 1));
        if (!isObject(data)) {
          // Go unmarshals into a map, so only an object decodes; anything else: keep looking.
          start = -1;
          continue;
        }
        const result = findObject(toolName, data);
        return { args: result.found ? result.args : data, end: i };
      }
      if (braces < 0) braces = 0;
    }
  }
  return { args: null, end: 0 };
}
