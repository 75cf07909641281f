/**
 * The checks Go's encoding/json makes when a dialect body is bound to Ollama's request struct, with its
 * wording: a JSON value of the wrong kind for a field is `json: cannot unmarshal <kind> into Go struct field
 * <Struct>.<path> of type <type>`, answered 400 before any conversion runs. `null` leaves a field at its zero value.
 */
import { DialectError } from "./dialect-error";

export type Json = Record<string, unknown>;

export function jsonKind(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "array";
  if (typeof v === "boolean") return "bool";
  return typeof v;
}

export function isObject(v: unknown): v is Json {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function fail(v: unknown, field: string, goType: string): never {
  throw new DialectError(400, `json: cannot unmarshal ${jsonKind(v)} into Go struct field ${field} of type ${goType}`);
}

/** The body as a JSON object (Go: `cannot unmarshal array into Go value of type <Struct>`). */
export function bodyObject(body: unknown, struct: string): Json {
  if (isObject(body)) return body;
  throw new DialectError(400, `json: cannot unmarshal ${jsonKind(body)} into Go value of type ${struct}`);
}

export function optString(v: unknown, field: string): string | undefined {
  if (v === undefined || v === null) return undefined;
  return typeof v === "string" ? v : fail(v, field, "string");
}

export function optNumber(v: unknown, field: string, goType = "float64"): number | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v !== "number") fail(v, field, goType);
  if (goType === "int" && !Number.isInteger(v))
    throw new DialectError(400, `json: cannot unmarshal number ${v} into Go struct field ${field} of type int`);
  return v;
}

export function optBool(v: unknown, field: string): boolean | undefined {
  if (v === undefined || v === null) return undefined;
  return typeof v === "boolean" ? v : fail(v, field, "bool");
}

export function optArray(v: unknown, field: string, goType: string): unknown[] | undefined {
  if (v === undefined || v === null) return undefined;
  return Array.isArray(v) ? v : fail(v, field, goType);
}

export function optObject(v: unknown, field: string, goType: string): Json | undefined {
  if (v === undefined || v === null) return undefined;
  return isObject(v) ? v : fail(v, field, goType);
}

/** An array whose every element must be an object (a struct element). */
export function objects(v: unknown, field: string, goType: string, elemType: string): Json[] {
  const arr = optArray(v, field, goType) ?? [];
  return arr.map((x) => (isObject(x) ? x : fail(x, field, elemType)));
}

/** Go's message for text that is not JSON, as json.Unmarshal words its most common case. */
export function parseJsonText(text: string): { ok: true; value: unknown } | { ok: false; error: string } {
  if (text.trim() === "") return { ok: false, error: "unexpected end of JSON input" };
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (err) {
    const pos = /position (\d+)/.exec((err as Error).message);
    const ch = pos ? text[Number(pos[1])] : undefined;
    return {
      ok: false,
      error:
        ch === undefined ? "unexpected end of JSON input" : `invalid character '${ch}' looking for beginning of value`,
    };
  }
}
