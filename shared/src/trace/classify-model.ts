/**
 * Classification of model-server exchanges: Ollama `/api/chat` (JSON or NDJSON stream) and the
 * OpenAI-compatible `/v1/chat/completions` (JSON or SSE stream).
 */
import type { Classification } from "./schemas";
import { clipText, isRecord, parseNdjson, pathOf, tryParseJson } from "./json-text";
import { parseSse } from "./sse";

type ModelChat = Extract<Classification, { kind: "model.chat" }>;
type ToolCall = ModelChat["toolCalls"][number];

export interface ModelClassifyInput {
  method: string;
  url: string;
  requestText: string | null;
  responseText: string | null;
  responseContentType?: string | undefined;
  simulated?: boolean | undefined;
}

const CHAT_PATHS = new Set(["/api/chat", "/v1/chat/completions"]);

export function classifyModel(input: ModelClassifyInput): Classification {
  const path = pathOf(input.url);
  const req = tryParseJson(input.requestText);
  const model = isRecord(req) && typeof req.model === "string" ? req.model : undefined;
  const simulated = input.simulated;
  if (!CHAT_PATHS.has(path) || input.method.toUpperCase() !== "POST" || !isRecord(req)) {
    return { kind: "model.other", endpoint: path, ...(model ? { model } : {}), ...(simulated === undefined ? {} : { simulated }) };
  }
  const messages = Array.isArray(req.messages) ? req.messages : [];
  const tools = Array.isArray(req.tools) ? req.tools : [];
  const openai = path === "/v1/chat/completions";
  // Ollama streams unless told otherwise; the OpenAI API does not.
  const stream = typeof req.stream === "boolean" ? req.stream : !openai;
  const base: ModelChat = {
    kind: "model.chat",
    ...(model ? { model } : {}),
    messageCount: messages.length,
    toolCount: tools.length,
    stream,
    toolCalls: [],
    ...(simulated === undefined ? {} : { simulated }),
  };
  if (input.responseText === null) return base;
  return openai ? withOpenAiResponse(base, input.responseText) : withOllamaResponse(base, input.responseText);
}

/** Aggregates an Ollama response: a single JSON object, or NDJSON lines whose contents concatenate. */
function withOllamaResponse(base: ModelChat, text: string): ModelChat {
  const whole = tryParseJson(text);
  const lines = whole !== undefined ? [whole] : parseNdjson(text);
  let content = "";
  let sawMessage = false;
  const toolCalls: ToolCall[] = [];
  const out: ModelChat = { ...base };
  for (const line of lines) {
    if (!isRecord(line)) continue;
    if (isRecord(line.message)) {
      sawMessage = true;
      if (typeof line.message.content === "string") content += line.message.content;
      if (Array.isArray(line.message.tool_calls)) toolCalls.push(...line.message.tool_calls.flatMap(ollamaToolCall));
    }
    if (line.done === true) {
      if (typeof line.done_reason === "string") out.doneReason = line.done_reason;
      copyNumber(line, "prompt_eval_count", out, "promptEvalCount");
      copyNumber(line, "eval_count", out, "evalCount");
      copyNumber(line, "load_duration", out, "loadDuration");
      copyNumber(line, "prompt_eval_duration", out, "promptEvalDuration");
      copyNumber(line, "eval_duration", out, "evalDuration");
      copyNumber(line, "total_duration", out, "totalDuration");
    }
  }
  out.toolCalls = toolCalls;
  if (sawMessage) out.content = clipText(content);
  return out;
}

function ollamaToolCall(tc: unknown): ToolCall[] {
  if (!isRecord(tc) || !isRecord(tc.function) || typeof tc.function.name !== "string") return [];
  const args = isRecord(tc.function.arguments) ? tc.function.arguments : {};
  return [{ name: tc.function.name, arguments: args, ...(typeof tc.id === "string" ? { id: tc.id } : {}) }];
}

/** OpenAI-compatible responses: `choices[0].message`, or SSE `data:` chunks with `delta`s. */
function withOpenAiResponse(base: ModelChat, text: string): ModelChat {
  const out: ModelChat = { ...base };
  const whole = tryParseJson(text);
  const bodies = whole !== undefined ? [whole] : parseSse(text).filter((e) => e.data !== "[DONE]").map((e) => tryParseJson(e.data));
  let content = "";
  let sawContent = false;
  // Streamed tool calls arrive in pieces keyed by index; arguments are a JSON string built up over deltas.
  const partial = new Map<number, { id?: string; name: string; args: string }>();
  for (const body of bodies) {
    if (!isRecord(body) || !Array.isArray(body.choices)) continue;
    const choice: unknown = body.choices[0];
    if (!isRecord(choice)) continue;
    const msg = isRecord(choice.message) ? choice.message : isRecord(choice.delta) ? choice.delta : undefined;
    if (typeof choice.finish_reason === "string") out.doneReason = choice.finish_reason;
    if (!msg) continue;
    if (typeof msg.content === "string") {
      content += msg.content;
      sawContent = true;
    }
    if (!Array.isArray(msg.tool_calls)) continue;
    msg.tool_calls.forEach((tc: unknown, i: number) => {
      if (!isRecord(tc)) return;
      const index = typeof tc.index === "number" ? tc.index : i;
      const entry = partial.get(index) ?? { name: "", args: "" };
      if (typeof tc.id === "string") entry.id = tc.id;
      if (isRecord(tc.function)) {
        if (typeof tc.function.name === "string") entry.name += tc.function.name;
        if (typeof tc.function.arguments === "string") entry.args += tc.function.arguments;
      }
      partial.set(index, entry);
    });
  }
  out.toolCalls = [...partial.entries()]
    .sort(([a], [b]) => a - b)
    .map(([, e]) => {
      const parsed = tryParseJson(e.args);
      return { name: e.name, arguments: isRecord(parsed) ? parsed : {}, ...(e.id ? { id: e.id } : {}) };
    });
  if (sawContent) out.content = clipText(content);
  return out;
}

type NumericKey = "promptEvalCount" | "evalCount" | "loadDuration" | "promptEvalDuration" | "evalDuration" | "totalDuration";

function copyNumber(from: Record<string, unknown>, key: string, to: ModelChat, as: NumericKey): void {
  const v = from[key];
  if (typeof v === "number") to[as] = v;
}
