/**
 * `POST /v1/chat/completions` → the native chat request (openai.FromChatRequest, middleware.ChatMiddleware):
 * - a string `content` is one message; a list of content parts becomes one native message per part (text, image),
 *   and the message's tool calls go on the last of them;
 * - `tool_calls[].function.arguments` is a JSON string, decoded into an object ("invalid tool call arguments" if not);
 * - a `tool` message takes its tool name from `name`, else from the assistant call with the same `tool_call_id`
 *   (from Ollama 0.11.4), and keeps its `tool_call_id` (from 0.12.11; ollama/ollama#12988);
 * - `max_tokens` → num_predict, `stop` (string or list) → stop, temperature and top_p default to 1.0.
 */
import { DialectError } from "./dialect-error";
import {
  type Json,
  bodyObject,
  isObject,
  objects,
  optArray,
  optBool,
  optNumber,
  optObject,
  optString,
  parseJsonText,
} from "./go-decode";
import {
  type Converted,
  type NativeToolCall,
  nativeChatRequest,
  nativeMessage,
  nativeToolCall,
  thinkFromEffort,
} from "./native";
import { PathMap } from "./path-map";
import { atLeast } from "../prompt/version";
import { OPENAI_DEBUG_RENDER_SINCE } from "./debug-render";

const STRUCT = "ChatCompletionRequest";

/** openai.FromCompletionToolCall: arguments must be a JSON object text. */
export function toolCallsFromOpenAi(raw: unknown, field: string): NativeToolCall[] {
  return objects(raw, field, "[]openai.ToolCall", "openai.ToolCall").map((tc) => {
    const fn = optObject(tc.function, `${field}.function`, "struct") ?? {};
    const args = optString(fn.arguments, `${field}.function.arguments`) ?? "";
    const parsed = parseJsonText(args);
    // Go unmarshals into an ordered map: anything but an object (or null) is refused.
    if (!parsed.ok || (parsed.value !== null && !isObject(parsed.value)))
      throw new DialectError(400, "invalid tool call arguments");
    return nativeToolCall(
      optString(tc.id, `${field}.id`),
      optString(fn.name, `${field}.function.name`) ?? "",
      (parsed.value ?? {}) as Json,
    );
  });
}

/** nameFromToolCallID: the last assistant call with this id names the tool. */
function nameFromCallId(messages: Json[], id: string): string {
  for (let i = messages.length - 1; i >= 0; i--) {
    const calls = Array.isArray(messages[i]!.tool_calls) ? (messages[i]!.tool_calls as unknown[]) : [];
    for (const tc of calls) {
      if (isObject(tc) && tc.id === id && isObject(tc.function) && typeof tc.function.name === "string")
        return tc.function.name;
    }
  }
  return "";
}

/** An `image_url` part's data URL (only base64 data is accepted, as decodeImageURL does), as native base64. */
function imageData(part: Json): string {
  const u = part.image_url;
  const url = isObject(u) ? u.url : u;
  if (typeof url !== "string") throw new DialectError(400, "invalid message format");
  if (url.startsWith("http://") || url.startsWith("https://")) {
    throw new DialectError(400, "image URLs are not currently supported, please use base64 encoded data instead");
  }
  const m = /^data:(?:image\/(?:jpeg|jpg|png|webp))?;base64,(.*)$/s.exec(url);
  if (!m || !/^[A-Za-z0-9+/]*={0,2}$/.test(m[1]!)) throw new DialectError(400, "invalid image input");
  return m[1]!;
}

/** Releases from which the conversion carries a tool message's name and its call id over. */
export const TOOL_NAME_SINCE = "0.11.4";
export const TOOL_CALL_ID_SINCE = "0.12.11";

function convertMessages(messages: Json[], paths: PathMap, version: string | undefined): Json[] {
  const since = (v: string) => version === undefined || atLeast(version, v);
  const out: Json[] = [];
  messages.forEach((msg, j) => {
    const at = `/messages/${j}`;
    const field = `${STRUCT}.messages`;
    const role = optString(msg.role, `${field}.role`) ?? "";
    const reasoning = optString(msg.reasoning, `${field}.reasoning`);
    const givenCallId = optString(msg.tool_call_id, `${field}.tool_call_id`);
    const toolCallId = since(TOOL_CALL_ID_SINCE) ? givenCallId : undefined;
    let toolName = "";
    if (role.toLowerCase() === "tool" && since(TOOL_NAME_SINCE)) {
      toolName = optString(msg.name, `${field}.name`) ?? "";
      if (toolName === "" && givenCallId) toolName = nameFromCallId(messages, givenCallId);
    }
    const callsAt = (i: number) => paths.add(`/messages/${i}/tool_calls`, `${at}/tool_calls`);
    const content = msg.content;
    if (typeof content === "string") {
      paths.add(`/messages/${out.length}`, at);
      callsAt(out.length);
      out.push(
        nativeMessage({
          role,
          content,
          thinking: reasoning,
          toolCalls: toolCallsFromOpenAi(msg.tool_calls, `${field}.tool_calls`),
          toolName,
          toolCallId,
        }),
      );
    } else if (Array.isArray(content)) {
      content.forEach((part, k) => {
        if (!isObject(part)) throw new DialectError(400, "invalid message format");
        paths.add(`/messages/${out.length}`, at).add(`/messages/${out.length}/content`, `${at}/content/${k}/text`);
        if (part.type === "text") {
          if (typeof part.text !== "string") throw new DialectError(400, "invalid message format");
          out.push(nativeMessage({ role, content: part.text }));
        } else if (part.type === "image_url") {
          out.push(nativeMessage({ role, images: [imageData(part)] }));
        } else throw new DialectError(400, "invalid message format");
      });
      const calls = optArray(msg.tool_calls, `${field}.tool_calls`, "[]openai.ToolCall");
      const last = out[out.length - 1];
      if (last && calls && calls.length > 0) {
        callsAt(out.length - 1);
        out[out.length - 1] = nativeMessage({
          role: last.role as string,
          content: last.content as string,
          images: last.images as string[] | undefined,
          toolCalls: toolCallsFromOpenAi(calls, `${field}.tool_calls`),
          toolName,
          toolCallId,
          thinking: reasoning,
        });
      }
    } else {
      // Content may be left out only when the message carries tool calls.
      if (msg.tool_calls === undefined || msg.tool_calls === null) {
        throw new DialectError(
          400,
          `invalid message content type: ${content === undefined || content === null ? "<nil>" : goTypeName(content)}`,
        );
      }
      paths.add(`/messages/${out.length}`, at);
      callsAt(out.length);
      out.push(
        nativeMessage({
          role,
          thinking: reasoning,
          toolCalls: toolCallsFromOpenAi(msg.tool_calls, `${field}.tool_calls`),
          toolCallId,
        }),
      );
    }
  });
  return out;
}

/** The Go type name `%T` prints for a decoded JSON value. */
function goTypeName(v: unknown): string {
  if (typeof v === "number") return "float64";
  if (typeof v === "boolean") return "bool";
  return isObject(v) ? "map[string]interface {}" : typeof v;
}

/** `stop`: a string is a one-element list; a list keeps its strings. */
export function stopOption(stop: unknown, strict: boolean): string[] | undefined {
  if (typeof stop === "string") return [stop];
  if (!Array.isArray(stop)) return undefined;
  const out: string[] = [];
  for (const s of stop) {
    if (typeof s === "string") out.push(s);
    else if (strict) throw new DialectError(400, `invalid type for 'stop' field: ${goTypeName(s)}`);
  }
  return out;
}

/** stop, max_tokens, temperature (default 1), seed, the penalties and top_p (default 1). */
function samplingOptions(r: Json, paths: PathMap): Json {
  const options: Json = {};
  const stop = stopOption(r.stop, false);
  if (stop) options.stop = stop;
  const maxTokens = optNumber(r.max_tokens, `${STRUCT}.max_tokens`, "int");
  if (maxTokens !== undefined) options.num_predict = maxTokens;
  options.temperature = optNumber(r.temperature, `${STRUCT}.temperature`) ?? 1.0;
  const seed = optNumber(r.seed, `${STRUCT}.seed`, "int");
  if (seed !== undefined) options.seed = seed;
  for (const k of ["frequency_penalty", "presence_penalty"] as const) {
    const v = optNumber(r[k], `${STRUCT}.${k}`);
    if (v !== undefined) options[k] = v;
  }
  options.top_p = optNumber(r.top_p, `${STRUCT}.top_p`) ?? 1.0;
  for (const [k, v] of Object.entries({
    stop: "/stop",
    num_predict: "/max_tokens",
    temperature: "/temperature",
    seed: "/seed",
    top_p: "/top_p",
  })) {
    if (options[k] !== undefined && r[v.slice(1)] !== undefined) paths.add(`/options/${k}`, v);
  }
  return options;
}

/** `response_format`: json_object is "json", a json_schema its schema. */
function formatOf(r: Json): unknown {
  const rf = optObject(r.response_format, `${STRUCT}.response_format`, "openai.ResponseFormat");
  const rfType = typeof rf?.type === "string" ? rf.type.trim().toLowerCase() : "";
  if (rfType === "json_object") return "json";
  if (rfType === "json_schema" && isObject(rf?.json_schema) && rf.json_schema.schema !== undefined)
    return rf.json_schema.schema;
  return undefined;
}

/** @param ollamaVersion the release whose conversion to reproduce (default: the newest behaviour) */
export function fromOpenAiChat(body: unknown, ollamaVersion?: string): Converted {
  const r = bodyObject(body, `openai.${STRUCT}`);
  const model = optString(r.model, `${STRUCT}.model`) ?? "";
  const messages = objects(r.messages, `${STRUCT}.messages`, "[]openai.Message", "openai.Message");
  if (messages.length === 0) throw new DialectError(400, "[] is too short - 'messages'");
  const stream = optBool(r.stream, `${STRUCT}.stream`) ?? false;
  const paths = new PathMap().add("/model", "/model").add("/tools", "/tools");
  const native = convertMessages(messages, paths, ollamaVersion);

  const options = samplingOptions(r, paths);
  const format = formatOf(r);
  const reasoning = optObject(r.reasoning, `${STRUCT}.reasoning`, "openai.Reasoning");
  const effort = reasoning
    ? optString(reasoning.effort, `${STRUCT}.reasoning.effort`)
    : optString(r.reasoning_effort, `${STRUCT}.reasoning_effort`);
  const tools = optArray(r.tools, `${STRUCT}.tools`, "[]api.Tool");
  const request = nativeChatRequest({
    model,
    messages: native,
    stream,
    format,
    tools,
    options,
    think: thinkFromEffort(effort),
    // ChatCompletionRequest has carried `_debug_render_only` since 0.12.0 (debug-render.ts); before, Go dropped it.
    debugRenderOnly:
      r._debug_render_only === true &&
      (ollamaVersion === undefined || atLeast(ollamaVersion, OPENAI_DEBUG_RENDER_SINCE)),
    logprobs: r.logprobs === true,
    topLogprobs: optNumber(r.top_logprobs, `${STRUCT}.top_logprobs`, "int"),
  });
  return { endpoint: "/api/chat", native: request, paths, stream };
}
