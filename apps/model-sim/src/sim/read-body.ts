/**
 * Reading a request body the way gin's `ShouldBindJSON` does, with Ollama's error bodies: an empty body
 * is `missing request body`, bad JSON and wrong types are 400 with Go's `encoding/json` wording (close
 * enough to recognise; the byte offsets Go adds to some messages are not reproduced).
 */
import { GO_MAX_DEPTH, depthExceededAt } from "@hopscope/shared/json/parse";
import type { z } from "zod";
import { OllamaError } from "./ollama-error";

const GO_TYPES: Record<string, string> = {
  string: "string",
  boolean: "bool",
  number: "float64",
  int: "int",
  array: "slice",
  object: "map[string]interface {}",
  record: "map[string]interface {}",
};

/** Go types of the fields a wrong type is most often sent for, by dotted path (api/types.go). */
const FIELD_TYPES: Record<string, string> = {
  messages: "[]api.Message",
  tools: "api.Tools",
  options: "map[string]interface {}",
  images: "[]api.ImageData",
  context: "[]int",
  "messages.tool_calls": "[]api.ToolCall",
  "messages.tool_calls.function.arguments": "api.ToolCallFunctionArguments",
  "messages.images": "[]api.ImageData",
};

function jsonKind(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "array";
  return typeof v === "object" ? "object" : typeof v;
}

/** Go's json syntax error text for what V8's JSON.parse rejected. */
function syntaxMessage(text: string, err: unknown): string {
  const msg = err instanceof Error ? err.message : String(err);
  if (/end of JSON input|Unterminated string/i.test(msg)) return "unexpected EOF";
  const pos = /at position (\d+)/.exec(msg);
  const tok = /Unexpected token '(.)'/.exec(msg) ?? /Unexpected token (.)/.exec(msg);
  const ch = pos ? text[Number(pos[1])] : tok?.[1];
  if (ch === undefined) return "unexpected EOF";
  return `invalid character ${JSON.stringify(ch).replace(/^"|"$/g, "'")} looking for beginning of value`;
}

/**
 * Go's decoder treats `null` for a struct field or map value as "leave the zero value", so `"content":
 * null` is an empty string and `"tools": null` no tools. Dropping object keys whose value is null gives
 * the same result before zod, which would otherwise reject them.
 */
function withoutNulls(v: unknown): unknown {
  // In place (the value is JSON.parse's own) and with an explicit stack: a body may nest up to Go's
  // 10,000 levels, deeper than a recursive walk gets on V8's stack.
  const pending: unknown[] = [v];
  while (pending.length > 0) {
    const cur = pending.pop();
    if (cur === null || typeof cur !== "object") continue;
    if (Array.isArray(cur)) {
      for (const x of cur) pending.push(x);
      continue;
    }
    const o = cur as Record<string, unknown>;
    for (const k of Object.keys(o)) {
      if (o[k] === null) delete o[k];
      else pending.push(o[k]);
    }
  }
  return v;
}

function at(raw: unknown, path: PropertyKey[]): unknown {
  let cur = raw;
  for (const key of path) {
    if (cur === null || typeof cur !== "object") return undefined;
    cur = (cur as Record<PropertyKey, unknown>)[key];
  }
  return cur;
}

/**
 * Parse `text` as JSON and validate it with `schema` (`struct` names the Go type for messages, e.g.
 * "ChatRequest"). Returns the validated value and the raw JSON (the prompt engine renders from the raw
 * body, which is what Go decodes). Throws OllamaError(400) with the message Ollama would send.
 */
export function parseOllamaBody<S extends z.ZodType>(
  text: string,
  schema: S,
  struct: string,
): { value: z.infer<S>; raw: Record<string, unknown> } {
  if (text.trim() === "") throw new OllamaError(400, "missing request body");
  // encoding/json's scanner stops at 10,000 levels with this SyntaxError, which ChatHandler answers as 400.
  const deep = depthExceededAt(text, GO_MAX_DEPTH);
  if (deep !== -1) throw new OllamaError(400, `invalid character '${text[deep]}' exceeded max depth`);
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    throw new OllamaError(400, syntaxMessage(text, err));
  }
  if (raw === null || typeof raw !== "object" || Array.isArray(raw)) {
    throw new OllamaError(400, `json: cannot unmarshal ${jsonKind(raw)} into Go value of type api.${struct}`);
  }
  raw = withoutNulls(raw);
  const parsed = schema.safeParse(raw);
  if (parsed.success) return { value: parsed.data, raw: raw as Record<string, unknown> };
  const issue = parsed.error.issues[0]!;
  const field = issue.path.filter((p) => typeof p === "string").join(".");
  const value = at(raw, issue.path);
  if (value === undefined) throw new OllamaError(400, `${field || "body"} is required: ${issue.message}`);
  if (issue.code === "invalid_type") {
    const expected = FIELD_TYPES[field] ?? GO_TYPES[issue.expected] ?? issue.expected;
    throw new OllamaError(
      400,
      `json: cannot unmarshal ${jsonKind(value)} into Go struct field ${struct}.${field} of type ${expected}`,
    );
  }
  throw new OllamaError(400, `${field}: ${issue.message}`);
}
