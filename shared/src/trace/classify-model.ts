/**
 * Classification of model-server exchanges in every dialect Ollama serves: its native `/api/chat` (JSON or
 * NDJSON), OpenAI's `/v1/chat/completions` and `/v1/responses`, and Anthropic's `/v1/messages` (JSON or SSE).
 * Tool calls are read with one reader per wire format (dialects/read-response): OpenAI's arguments are a JSON
 * string, Anthropic's a `tool_use` block's input, Ollama's an object; token counts come from `usage` where the
 * dialect has no prompt_eval_count. Generate endpoints (`/api/generate`, `/v1/completions`) are "model.other".
 */
import type { Classification } from "./schemas";
import { clipText, isRecord, pathOf, tryParseJson } from "./json-text";
import { toNative } from "../dialects/convert";
import { type Dialect, dialectOfPath, isChatDialect, wantsStream } from "../dialects/dialect";
import { readResponse } from "../dialects/read-response";

type ModelChat = Extract<Classification, { kind: "model.chat" }>;

export interface ModelClassifyInput {
  method: string;
  url: string;
  requestText: string | null;
  responseText: string | null;
  responseContentType?: string | undefined;
  simulated?: boolean | undefined;
}

/** How many messages the model was given: the native request's, when Ollama would accept the body. */
function messageCount(d: Dialect, req: Record<string, unknown>): number {
  try {
    const native = toNative(d, req).native;
    return Array.isArray(native.messages) ? native.messages.length : 0;
  } catch {
    // A body Ollama refuses: count what the client sent.
    const list = d === "openai-responses" ? req.input : req.messages;
    return Array.isArray(list) ? list.length : 0;
  }
}

export function classifyModel(input: ModelClassifyInput): Classification {
  const path = pathOf(input.url);
  const req = tryParseJson(input.requestText);
  const model = isRecord(req) && typeof req.model === "string" ? req.model : undefined;
  const simulated = input.simulated;
  const d = dialectOfPath(path);
  if (!d || !isChatDialect(d) || input.method.toUpperCase() !== "POST" || !isRecord(req)) {
    return { kind: "model.other", endpoint: path, ...(model ? { model } : {}), ...(simulated === undefined ? {} : { simulated }) };
  }
  const tools = Array.isArray(req.tools) ? req.tools : [];
  const base: ModelChat = {
    kind: "model.chat",
    ...(model ? { model } : {}),
    messageCount: messageCount(d, req),
    toolCount: tools.length,
    stream: wantsStream(d, req),
    toolCalls: [],
    ...(simulated === undefined ? {} : { simulated }),
  };
  if (input.responseText === null) return base;
  return d === "ollama" ? withOllamaResponse(base, input.responseText) : withDialectResponse(base, d, input.responseText);
}

/** Ollama's own response: the counts and durations of the done chunk as well. */
function withOllamaResponse(base: ModelChat, text: string): ModelChat {
  const out = withDialectResponse(base, "ollama", text);
  const whole = tryParseJson(text);
  const lines = whole !== undefined ? [whole] : text.split("\n").map((l) => tryParseJson(l));
  const done = lines.find((l) => isRecord(l) && l.done === true);
  if (isRecord(done)) {
    copyNumber(done, "load_duration", out, "loadDuration");
    copyNumber(done, "prompt_eval_duration", out, "promptEvalDuration");
    copyNumber(done, "eval_duration", out, "evalDuration");
    copyNumber(done, "total_duration", out, "totalDuration");
  }
  return out;
}

function withDialectResponse(base: ModelChat, d: Dialect, text: string): ModelChat {
  const r = readResponse(d, text);
  const out: ModelChat = { ...base, toolCalls: r.toolCalls.map((c) => ({ name: c.name, arguments: c.arguments, ...(c.id ? { id: c.id } : {}) })) };
  if (r.sawContent) out.content = clipText(r.content);
  if (r.doneReason !== undefined) out.doneReason = r.doneReason;
  if (r.promptTokens !== undefined) out.promptEvalCount = r.promptTokens;
  if (r.outputTokens !== undefined) out.evalCount = r.outputTokens;
  return out;
}

type NumericKey = "loadDuration" | "promptEvalDuration" | "evalDuration" | "totalDuration";

function copyNumber(from: Record<string, unknown>, key: string, to: ModelChat, as: NumericKey): void {
  const v = from[key];
  if (typeof v === "number") to[as] = v;
}
