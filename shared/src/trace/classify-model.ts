/**
 * Classification of model-server exchanges in every dialect Ollama serves: its native `/api/chat` (JSON or
 * NDJSON), OpenAI's `/v1/chat/completions` and `/v1/responses`, and Anthropic's `/v1/messages` (JSON or SSE).
 * Tool calls are read with one reader per wire format (dialects/read-response): OpenAI's arguments are a JSON
 * string, Anthropic's a `tool_use` block's input, Ollama's an object; token counts come from `usage` where the
 * dialect has no prompt_eval_count. Generate endpoints (`/api/generate`, `/v1/completions`) are "model.other".
 */
import type { Classification } from "./schemas";
import { clipText, isRecord, pathOf, parsedRequestJson, type RequestInput } from "./json-text";
import { toNative } from "../dialects/convert";
import { type Dialect, dialectOfPath, isChatDialect, wantsStream } from "../dialects/dialect";
import { readResponse } from "../dialects/read-response";
import { refusalMessage } from "./stream-end";
import { requestLineOf } from "./request-line";

type ModelChat = Extract<Classification, { kind: "model.chat" }>;

export interface ModelClassifyInput extends RequestInput {
  method: string;
  url: string;
  responseText: string | null;
  responseContentType?: string | undefined;
  simulated?: boolean | undefined;
  /** The HTTP status of the answer (a 4xx or 5xx carries the server's refusal). */
  status?: number | null;
}

/** The request as Ollama would take it; undefined for a body Ollama refuses. */
function nativeOf(d: Dialect, req: Record<string, unknown>): Record<string, unknown> | undefined {
  try {
    return toNative(d, req).native;
  } catch {
    return undefined;
  }
}

/** How many messages the model was given: the native request's, when Ollama would accept the body. */
function messageCount(d: Dialect, req: Record<string, unknown>, native: Record<string, unknown> | undefined): number {
  // A body Ollama refuses: count what the client sent.
  const list = native ? native.messages : d === "openai-responses" ? req.input : req.messages;
  return Array.isArray(list) ? list.length : 0;
}

export function classifyModel(input: ModelClassifyInput): Classification {
  const c = classifyModelRequest(input);
  const refusal =
    input.status !== undefined && input.status !== null && input.status >= 400
      ? refusalMessage(input.responseText)
      : null;
  if (refusal !== null && (c.kind === "model.chat" || c.kind === "model.other")) c.refusal = clipText(refusal);
  return c;
}

function classifyModelRequest(input: ModelClassifyInput): Classification {
  const path = pathOf(input.url);
  const req = parsedRequestJson(input);
  const model = isRecord(req) && typeof req.model === "string" ? req.model : undefined;
  const simulated = input.simulated;
  const d = dialectOfPath(path);
  if (!d || !isChatDialect(d) || input.method.toUpperCase() !== "POST" || !isRecord(req)) {
    return {
      kind: "model.other",
      endpoint: path,
      ...(model ? { model } : {}),
      ...(simulated === undefined ? {} : { simulated }),
    };
  }
  const tools = Array.isArray(req.tools) ? req.tools : [];
  const native = nativeOf(d, req);
  const base: ModelChat = {
    kind: "model.chat",
    ...(model ? { model } : {}),
    messageCount: messageCount(d, req, native),
    toolCount: tools.length,
    stream: wantsStream(d, req),
    toolCalls: [],
    ...(simulated === undefined ? {} : { simulated }),
    ...(native && input.requestText !== null ? { line: requestLineOf(native, input.requestText) } : {}),
  };
  if (input.responseText === null) return base;
  return d === "ollama"
    ? withOllamaResponse(base, input.responseText)
    : withDialectResponse(base, d, input.responseText);
}

/** Ollama's own response: the durations of the done chunk as well (read in the same pass). */
function withOllamaResponse(base: ModelChat, text: string): ModelChat {
  const { out, read } = withRead(base, "ollama", text);
  const done = read.done ?? {};
  for (const [key, as] of [
    ["load_duration", "loadDuration"],
    ["prompt_eval_duration", "promptEvalDuration"],
    ["eval_duration", "evalDuration"],
    ["total_duration", "totalDuration"],
  ] as const) {
    if (done[key] !== undefined) out[as] = done[key];
  }
  return out;
}

function withDialectResponse(base: ModelChat, d: Dialect, text: string): ModelChat {
  return withRead(base, d, text).out;
}

function withRead(
  base: ModelChat,
  d: Dialect,
  text: string,
): { out: ModelChat; read: ReturnType<typeof readResponse> } {
  const r = readResponse(d, text);
  const out: ModelChat = {
    ...base,
    toolCalls: r.toolCalls.map((c) => ({ name: c.name, arguments: c.arguments, ...(c.id ? { id: c.id } : {}) })),
  };
  if (r.sawContent) out.content = clipText(r.content);
  if (r.doneReason !== undefined) out.doneReason = r.doneReason;
  if (r.promptTokens !== undefined) out.promptEvalCount = r.promptTokens;
  if (r.outputTokens !== undefined) out.evalCount = r.outputTokens;
  return { out, read: r };
}
