/** Reading the native chat/generate response chunks the dialect writers convert (api.ChatResponse, api.GenerateResponse). */
import { type Json, isObject } from "./go-decode";
import { goJson } from "../json/go-json";

export interface NativeCall {
  id?: string;
  index: number;
  name: string;
  arguments: Json;
}

export interface NativeChunk {
  model: string;
  createdAt: string;
  role: string;
  content: string;
  thinking: string;
  toolCalls: NativeCall[];
  done: boolean;
  doneReason: string;
  promptEvalCount: number;
  evalCount: number;
  /** `/api/generate`'s text. */
  response: string;
  /** `_debug_info` of a `_debug_render_only` answer (the rendered template). */
  debugInfo?: Json;
}

export function readNativeChunk(r: Json): NativeChunk {
  const m = isObject(r.message) ? r.message : {};
  const calls = Array.isArray(m.tool_calls) ? m.tool_calls : [];
  const str = (v: unknown) => (typeof v === "string" ? v : "");
  const num = (v: unknown) => (typeof v === "number" ? v : 0);
  return {
    model: str(r.model),
    createdAt: str(r.created_at),
    role: str(m.role),
    content: str(m.content),
    thinking: str(m.thinking),
    toolCalls: calls.filter(isObject).map((tc) => {
      const fn = isObject(tc.function) ? tc.function : {};
      return {
        ...(typeof tc.id === "string" ? { id: tc.id } : {}),
        index: num(fn.index),
        name: str(fn.name),
        arguments: isObject(fn.arguments) ? fn.arguments : {},
      };
    }),
    done: r.done === true,
    doneReason: str(r.done_reason),
    promptEvalCount: num(r.prompt_eval_count),
    evalCount: num(r.eval_count),
    response: str(r.response),
    ...(isObject(r._debug_info) ? { debugInfo: r._debug_info } : {}),
  };
}

/** Unix seconds of an RFC 3339 time (Go's `CreatedAt.Unix()`); Go's nanoseconds are cut to what Date reads. */
export function unixSeconds(createdAt: string, fallback: () => number = () => Date.now()): number {
  const ms = Date.parse(createdAt.replace(/(\.\d{3})\d+/, "$1"));
  return Math.floor((Number.isNaN(ms) ? fallback() : ms) / 1000);
}

/** A tool call's arguments as OpenAI carries them: the JSON text `json.Marshal` writes. */
export function argumentsText(args: Json): string {
  return goJson(args);
}

/** One SSE event as Ollama writes it: `event:` only when named, `data:` the Go-marshalled JSON, a blank line. */
export function sseEvent(data: unknown, event?: string): string {
  return `${event ? `event: ${event}\n` : ""}data: ${typeof data === "string" ? data : goJson(data)}\n\n`;
}
