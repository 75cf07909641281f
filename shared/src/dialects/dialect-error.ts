/**
 * Errors in each dialect's own shape, with the status Ollama gives. A conversion that Ollama's middleware
 * would refuse throws DialectError(400, message) with Ollama's message; a native `{"error": "..."}` from the
 * handler behind it is re-shaped by the same writer (middleware/openai.go writeError, middleware/anthropic.go).
 */
import type { Dialect } from "./dialect";

export class DialectError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = "DialectError";
  }
}

/** openai.NewError: the type follows the status. `param` and `code` are always null. */
function openAiError(status: number, message: string): Record<string, unknown> {
  const type = status === 400 ? "invalid_request_error" : status === 404 ? "not_found_error" : "api_error";
  return { error: { message, type, param: null, code: null } };
}

const ANTHROPIC_TYPES: Record<number, string> = {
  400: "invalid_request_error",
  401: "authentication_error",
  403: "permission_error",
  404: "not_found_error",
  429: "rate_limit_error",
  503: "overloaded_error",
  529: "overloaded_error",
};

/** anthropic.NewError: `{type: "error", error: {type, message}, request_id}`; request ids are "req_" + 24 hex digits. */
function anthropicError(status: number, message: string, requestId: string): Record<string, unknown> {
  return { type: "error", error: { type: ANTHROPIC_TYPES[status] ?? "api_error", message }, request_id: requestId };
}

/** The error body a dialect's client gets for `message` at `status` (native dialects: `{"error": message}`). */
export function dialectErrorBody(
  d: Dialect,
  status: number,
  message: string,
  randomHex: (bytes: number) => string = hexId,
): Record<string, unknown> {
  switch (d) {
    case "ollama":
    case "ollama-generate":
      return { error: message };
    case "anthropic":
      return anthropicError(status, message, `req_${randomHex(12)}`);
    default:
      return openAiError(status, message);
  }
}

/** The message of an error body in any dialect's shape, or null when the body is not one. */
export function errorMessageOf(body: unknown): string | null {
  if (typeof body !== "object" || body === null) return null;
  const err = (body as { error?: unknown }).error;
  if (typeof err === "string") return err;
  if (typeof err === "object" && err !== null && typeof (err as { message?: unknown }).message === "string")
    return (err as { message: string }).message;
  return null;
}

/** `bytes` random bytes as lowercase hex (crypto.getRandomValues exists in Node 20 and every browser). */
export function hexId(bytes: number): string {
  const b = new Uint8Array(bytes);
  globalThis.crypto.getRandomValues(b);
  return [...b].map((x) => x.toString(16).padStart(2, "0")).join("");
}
