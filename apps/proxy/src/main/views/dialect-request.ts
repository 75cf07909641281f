/**
 * A recorded model exchange read in its dialect: which dialect it is, the request rendered through the shared
 * conversion layer (client JSON → native request → prompt), and the model's raw text rebuilt from the response
 * in that dialect. Pure over the stored exchange; exchange-views.ts adds tokens, verification and the diff.
 */
import { toNative } from "@hopscope/shared/dialects/convert";
import { DIALECT_LABELS, type Dialect, dialectOfPath } from "@hopscope/shared/dialects/dialect";
import { DialectError } from "@hopscope/shared/dialects/dialect-error";
import { readResponse } from "@hopscope/shared/dialects/read-response";
import { type DialectRender, renderDialect } from "@hopscope/shared/dialects/render-dialect";
import { ChatRequestSchema, ChatResponseSchema, type ChatResponse } from "@hopscope/shared/ollama/schemas";
import type { RenderOptions } from "@hopscope/shared/prompt/render";
import { rawOutputFromChunks, rawOutputFromMessage } from "@hopscope/shared/toolcall/raw-output";
import { isRecord, pathOf } from "@hopscope/shared/trace/json-text";
import type { Exchange } from "@hopscope/shared/trace/schemas";
import type { ConversionView } from "@hopscope/shared/trace/views";
import { tryParseJson } from "@hopscope/shared/json/parse";
import { parseNdjson } from "@hopscope/shared/framing/ndjson";

export type RenderOutcome =
  | { kind: "rendered"; render: DialectRender; conversion?: ConversionView }
  | { kind: "refused"; status: number; message: string }
  | { kind: "unreadable"; note: string };

/**
 * Each recorded request body parsed once per build: a view reads the same body in several places (the model, the
 * native request, the render, the facts), and a body of megabytes takes the API thread a while each time. Kept by
 * the body object (a build holds one exchange object throughout) and frozen, so no reader changes another's copy.
 */
const parsedBodies = new WeakMap<object, unknown>();

function parsedBody(body: NonNullable<Exchange["requestBody"]>): unknown {
  if (parsedBodies.has(body)) return parsedBodies.get(body);
  const value = deepFrozen(tryParseJson(body.data));
  parsedBodies.set(body, value);
  return value;
}

function deepFrozen<T>(value: T): T {
  if (typeof value !== "object" || value === null || Object.isFrozen(value)) return value;
  for (const v of Object.values(value)) deepFrozen(v);
  return Object.freeze(value);
}

/** The dialect of a model exchange whose prompt can be shown (a POST to a generating endpoint), or null. */
export function viewDialect(ex: Exchange): Dialect | null {
  if (ex.tap !== "model" || ex.method.toUpperCase() !== "POST") return null;
  return dialectOfPath(pathOf(ex.url));
}

/** The request rendered as Ollama would, or why it cannot be. */
export function renderExchange(ex: Exchange, d: Dialect, opts: RenderOptions): RenderOutcome {
  const label = DIALECT_LABELS[d];
  if (!ex.requestBody || ex.requestBody.encoding !== "utf8" || ex.requestBody.truncated) {
    return {
      kind: "unreadable",
      note: `the request body is not a complete ${label} JSON request (truncated or binary), so no prompt can be rendered`,
    };
  }
  const body = parsedBody(ex.requestBody);
  if (body === undefined)
    return {
      kind: "unreadable",
      note: `the request body is not JSON, so Ollama would refuse it and no prompt can be rendered`,
    };
  if (d === "ollama" && !(isRecord(body) && ChatRequestSchema.safeParse(body).success)) {
    return {
      kind: "unreadable",
      note: "the request body is not a complete /api/chat JSON request (truncated or malformed), so no prompt can be rendered",
    };
  }
  let render: DialectRender;
  try {
    render = renderDialect(d, body, opts);
  } catch (err) {
    if (err instanceof DialectError) return { kind: "refused", status: err.status, message: err.message };
    throw err;
  }
  if (d === "ollama" || d === "ollama-generate") return { kind: "rendered", render };
  const c = render.converted;
  return {
    kind: "rendered",
    render,
    conversion: {
      dialect: d,
      label,
      endpoint: c.endpoint,
      native: JSON.stringify(c.native, null, 2),
      paths: c.paths.toJSON(),
    },
  };
}

/** The client's recorded request body as JSON, when it is whole and UTF-8; undefined otherwise. */
export function requestJsonOf(ex: Exchange): unknown {
  return ex.requestBody && ex.requestBody.encoding === "utf8" && !ex.requestBody.truncated
    ? parsedBody(ex.requestBody)
    : undefined;
}

/** The native request Ollama builds from the body (chat or generate), when the body converts. */
export function nativeRequestOf(
  ex: Exchange,
  d: Dialect,
  opts: RenderOptions = {},
): { endpoint: "/api/chat" | "/api/generate"; native: Record<string, unknown> } | null {
  const body = requestJsonOf(ex);
  if (body === undefined) return null;
  try {
    const c = toNative(d, body, opts.ollamaVersion ? { ollamaVersion: opts.ollamaVersion } : {});
    return { endpoint: c.endpoint, native: c.native };
  } catch (err) {
    // A body Ollama refuses has no native request (the view says why); anything else is a bug.
    if (err instanceof DialectError) return null;
    throw err;
  }
}

/** The native /api/chat request (for the family comparison and the server's own render), when the body converts to one. */
export function nativeChatOf(ex: Exchange, d: Dialect, opts: RenderOptions = {}): Record<string, unknown> | null {
  const n = nativeRequestOf(ex, d, opts);
  return n?.endpoint === "/api/chat" ? n.native : null;
}

/** The model's raw text rebuilt from a successful response in the exchange's dialect. */
export function rawOutputOf(ex: Exchange, d: Dialect): string | null {
  const body = ex.responseBody;
  if (!body || body.encoding !== "utf8" || ex.status !== 200) return null;
  if (d === "ollama") return nativeRawOutput(body.data);
  const r = readResponse(d, body.data);
  if (!r.sawContent && r.toolCalls.length === 0) return null;
  return rawOutputFromMessage({
    content: r.content,
    tool_calls: r.toolCalls.map((c) => ({ function: { name: c.name, arguments: c.arguments } })),
  });
}

function nativeRawOutput(text: string): string | null {
  const whole = tryParseJson(text);
  if (whole !== undefined) {
    const one = ChatResponseSchema.safeParse(whole);
    return one.success ? rawOutputFromMessage(one.data.message) : null;
  }
  const chunks = parseNdjson(text, { onBadLine: "skip" }).flatMap((l) => {
    const c = ChatResponseSchema.safeParse(l);
    return c.success ? [c.data] : ([] as ChatResponse[]);
  });
  return chunks.length > 0 ? rawOutputFromChunks(chunks) : null;
}

/** The model a recorded request names, or null. */
export function modelOf(ex: Exchange): string | null {
  const body = ex.requestBody?.encoding === "utf8" ? parsedBody(ex.requestBody) : undefined;
  const model = body && typeof body === "object" ? (body as { model?: unknown }).model : undefined;
  return typeof model === "string" && model !== "" ? model : null;
}

/** The native body Ollama makes of the request (chat or generate: what a native `_debug_render_only` is asked with), or the body. */
export function nativeOrBody(ex: Exchange, d: Dialect, version: string | null): Record<string, unknown> {
  const native = nativeRequestOf(ex, d, version ? { ollamaVersion: version } : {})?.native;
  if (native) return native;
  const body = ex.requestBody?.encoding === "utf8" ? parsedBody(ex.requestBody) : undefined;
  return body && typeof body === "object" && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
}
