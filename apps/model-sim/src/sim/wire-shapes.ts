/**
 * Response objects built in the field order Ollama's Go structs marshal them (api/types.go), with
 * `omitempty` fields left out when empty. goJson() then writes them byte for byte as Ollama would.
 */
import type { IdentifiedToolCall } from "@hopscope/shared/toolcall/chat-glue";
import { sortedArguments } from "@hopscope/shared/toolcall/arguments-order";
import { goNow } from "./go-time";

export interface Metrics {
  totalDurationNs: number;
  loadDurationNs: number;
  promptEvalCount: number;
  promptEvalDurationNs: number;
  evalCount: number;
  evalDurationNs: number;
}

/** `api.Metrics`, every field omitempty. */
export function metricsFields(m: Metrics): Record<string, number> {
  const out: Record<string, number> = {};
  const put = (k: string, v: number) => {
    if (v !== 0) out[k] = Math.round(v);
  };
  put("total_duration", m.totalDurationNs);
  put("load_duration", m.loadDurationNs);
  put("prompt_eval_count", m.promptEvalCount);
  put("prompt_eval_duration", m.promptEvalDurationNs);
  put("eval_count", m.evalCount);
  put("eval_duration", m.evalDurationNs);
  return out;
}

/**
 * `api.ToolCall` on the wire: with `id` and an always-present `index` from v0.13, without `id` and with
 * `index` omitted when 0 before. Arguments in Go map order (sorted), as v0.13 marshals them; later
 * versions randomise the top level, of which sorted is one possible order.
 */
export function toolCallObject(call: IdentifiedToolCall, withIds: boolean): Record<string, unknown> {
  const fn: Record<string, unknown> = {};
  if (withIds || call.function.index !== 0) fn.index = call.function.index;
  fn.name = call.function.name;
  fn.arguments = sortedArguments(call.function.arguments);
  return withIds ? { id: call.id, function: fn } : { function: fn };
}

export interface ChatChunkInit {
  model: string;
  content: string;
  toolCalls?: Record<string, unknown>[];
  done: boolean;
  doneReason?: string;
  metrics?: Metrics;
  role?: string;
}

/** `api.ChatResponse`: model, created_at, message{role, content, tool_calls?}, done, done_reason?, metrics. */
export function chatChunk(c: ChatChunkInit): Record<string, unknown> {
  const message: Record<string, unknown> = { role: c.role ?? "assistant", content: c.content };
  if (c.toolCalls && c.toolCalls.length > 0) message.tool_calls = c.toolCalls;
  const out: Record<string, unknown> = { model: c.model, created_at: goNow(), message, done: c.done };
  if (c.doneReason) out.done_reason = c.doneReason;
  return c.metrics ? { ...out, ...metricsFields(c.metrics) } : out;
}

export interface GenerateChunkInit {
  model: string;
  response: string;
  done: boolean;
  doneReason?: string;
  context?: number[];
  metrics?: Metrics;
}

/** `api.GenerateResponse`: model, created_at, response, done, done_reason?, context?, metrics. */
export function generateChunk(c: GenerateChunkInit): Record<string, unknown> {
  const out: Record<string, unknown> = { model: c.model, created_at: goNow(), response: c.response, done: c.done };
  if (c.doneReason) out.done_reason = c.doneReason;
  if (c.context && c.context.length > 0) out.context = c.context;
  return c.metrics ? { ...out, ...metricsFields(c.metrics) } : out;
}
