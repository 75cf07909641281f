/**
 * The native requests a dialect becomes, built in the field order of Ollama's Go structs (api/types.go) with
 * `omitempty` fields left out when empty, so that the JSON the middleware hands to the handler is what
 * `json.NewEncoder(&b).Encode(chatReq)` writes. The conversion result carries the path map beside it.
 */
import { DialectError } from "./dialect-error";
import type { PathMap } from "./path-map";
import type { Json } from "./go-decode";

export interface NativeToolCall {
  id?: string;
  function: { index: number; name: string; arguments: Json };
}

export interface NativeMessageInit {
  role: string;
  content?: string;
  thinking?: string;
  images?: string[];
  toolCalls?: NativeToolCall[];
  toolName?: string;
  toolCallId?: string;
}

/** api.Message: role, content, then the omitempty fields. */
export function nativeMessage(m: NativeMessageInit): Json {
  const out: Json = { role: m.role, content: m.content ?? "" };
  if (m.thinking) out.thinking = m.thinking;
  if (m.images && m.images.length > 0) out.images = m.images;
  if (m.toolCalls && m.toolCalls.length > 0) out.tool_calls = m.toolCalls;
  if (m.toolName) out.tool_name = m.toolName;
  if (m.toolCallId) out.tool_call_id = m.toolCallId;
  return out;
}

export function nativeToolCall(id: string | undefined, name: string, args: Json): NativeToolCall {
  return { ...(id ? { id } : {}), function: { index: 0, name, arguments: args } };
}

export interface NativeChatInit {
  model: string;
  messages: Json[];
  stream?: boolean;
  format?: unknown;
  tools?: unknown[];
  options: Json;
  think?: unknown;
  debugRenderOnly?: boolean;
  logprobs?: boolean;
  topLogprobs?: number;
}

/** api.ChatRequest in field order. */
export function nativeChatRequest(r: NativeChatInit): Json {
  const out: Json = { model: r.model, messages: r.messages };
  if (r.stream !== undefined) out.stream = r.stream;
  if (r.format !== undefined) out.format = r.format;
  if (r.tools && r.tools.length > 0) out.tools = r.tools;
  out.options = r.options;
  if (r.think !== undefined) out.think = r.think;
  if (r.debugRenderOnly) out._debug_render_only = true;
  if (r.logprobs) out.logprobs = true;
  if (r.topLogprobs) out.top_logprobs = r.topLogprobs;
  return out;
}

/** What a dialect request became: the native request, which native endpoint takes it, and where each part came from. */
export interface Converted {
  endpoint: "/api/chat" | "/api/generate";
  native: Json;
  paths: PathMap;
  /** Whether the client asked for a stream (the native request's `stream` may say otherwise). */
  stream: boolean;
}

/** OpenAI's reasoning effort → Ollama's `think` (openai.thinkFromReasoningEffort). */
export function thinkFromEffort(effort: string | undefined): unknown {
  switch (effort) {
    case undefined:
    case "":
      return undefined;
    case "none":
      return false;
    case "minimal":
      return "low";
    case "low":
    case "medium":
    case "high":
    case "max":
      return effort;
    case "xhigh":
    case "ultra":
      return "max";
    default:
      throw new DialectError(
        400,
        `invalid reasoning value: "${effort}" (must be "minimal", "low", "medium", "high", "xhigh", "ultra", "max", or "none")`,
      );
  }
}
