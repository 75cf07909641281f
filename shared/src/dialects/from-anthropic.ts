/**
 * `POST /v1/messages` → the native chat request (anthropic.FromMessagesRequest, Ollama ≥ 0.14.0):
 * - `system` as a string, or its text blocks joined with nothing between them, is one system message;
 * - in one message, text blocks join into one content; `tool_use` blocks (which must have `id` and `name`)
 *   become its tool calls, with `input` as the arguments object;
 * - `tool_result` blocks become `tool` messages (`tool_call_id` = `tool_use_id`): from Ollama 0.23.4 they come
 *   before the turn's text in a user turn and after it in any other turn; 0.14.0–0.23.3 put them after the text
 *   always (ollama/ollama#16047 changed it);
 * - unknown block types are skipped; `max_tokens` (required, > 0) → num_predict, `stop_sequences` → stop,
 *   temperature/top_p/top_k only when given.
 */
import { DialectError } from "./dialect-error";
import { type Json, bodyObject, isObject, objects, optArray, optNumber, optObject, optString } from "./go-decode";
import { type Converted, type NativeToolCall, nativeChatRequest, nativeMessage, nativeToolCall } from "./native";
import { PathMap } from "./path-map";
import { atLeast } from "../prompt/version";

const STRUCT = "MessagesRequest";

/** A message's content as blocks: a string is one text block (MessageParam.UnmarshalJSON). */
function blocksOf(content: unknown, field: string): Json[] {
  if (typeof content === "string") return [{ type: "text", text: content }];
  return objects(content, field, "[]anthropic.ContentBlock", "anthropic.ContentBlock");
}

/** convertToolResultContent: a string, or the text of its text blocks (images kept). */
function toolResultText(content: unknown): { text: string; images: string[] } {
  if (typeof content === "string") return { text: content, images: [] };
  if (!Array.isArray(content)) return { text: "", images: [] };
  let text = "";
  const images: string[] = [];
  for (const b of content) {
    if (!isObject(b)) continue;
    if (b.type === "text" && typeof b.text === "string") text += b.text;
    if (b.type === "image") images.push(imageData(b.source, "invalid tool_result image source"));
  }
  return { text, images };
}

function imageData(source: unknown, missing: string): string {
  if (!isObject(source)) throw new DialectError(400, missing);
  if (source.type !== "base64")
    throw new DialectError(
      400,
      `invalid image source type: ${String(source.type ?? "")}. Only base64 images are supported.`,
    );
  const data = typeof source.data === "string" ? source.data : "";
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(data))
    throw new DialectError(400, "invalid base64 image data: illegal base64 data");
  return data;
}

/** The first release that puts a user turn's tool results before its text (ollama/ollama#16047). */
export const TOOL_RESULTS_FIRST_SINCE = "0.23.4";

function convertMessage(msg: Json, j: number, out: Json[], paths: PathMap, resultsFirst: boolean): void {
  const at = `/messages/${j}`;
  const role = (optString(msg.role, `${STRUCT}.messages.role`) ?? "").toLowerCase();
  const blocks = typeof msg.content === "string" ? null : blocksOf(msg.content, `${STRUCT}.messages.content`);
  let text = "";
  let textPath: string | null = typeof msg.content === "string" ? `${at}/content` : null;
  let thinking = "";
  const images: string[] = [];
  const calls: { call: NativeToolCall; at: string }[] = [];
  const results: { msg: Json; at: string }[] = [];
  (blocks ?? blocksOf(msg.content, "")).forEach((b, k) => {
    const bAt = `${at}/content/${k}`;
    switch (b.type) {
      case "text":
        if (typeof b.text === "string") {
          if (textPath === null) textPath = `${bAt}/text`;
          text += b.text;
        }
        return;
      case "image":
        images.push(imageData(b.source, "invalid image source"));
        return;
      case "tool_use":
      case "server_tool_use": {
        const id = typeof b.id === "string" ? b.id : "";
        const name = typeof b.name === "string" ? b.name : "";
        if (b.type === "tool_use" && id === "")
          throw new DialectError(400, "tool_use block missing required 'id' field");
        if (b.type === "tool_use" && name === "")
          throw new DialectError(400, "tool_use block missing required 'name' field");
        const input = optObject(b.input, `${STRUCT}.messages.content.input`, "api.ToolCallFunctionArguments") ?? {};
        calls.push({ call: nativeToolCall(id, name, input), at: bAt });
        return;
      }
      case "tool_result": {
        const r = toolResultText(b.content);
        results.push({
          msg: nativeMessage({
            role: "tool",
            content: r.text,
            images: r.images,
            toolCallId: optString(b.tool_use_id, `${STRUCT}.messages.content.tool_use_id`),
          }),
          at: bAt,
        });
        return;
      }
      case "thinking":
        if (typeof b.thinking === "string") thinking = b.thinking;
        return;
      default:
        // Ollama counts and skips block types it does not know.
        return;
    }
  });
  const pushResults = () => {
    for (const r of results) {
      paths.add(`/messages/${out.length}`, r.at).add(`/messages/${out.length}/content`, `${r.at}/content`);
      out.push(r.msg);
    }
  };
  const first = resultsFirst && role === "user" && results.length > 0;
  if (first) pushResults();
  if (text !== "" || images.length > 0 || calls.length > 0 || thinking !== "") {
    const i = out.length;
    paths.add(`/messages/${i}`, at);
    if (textPath) paths.add(`/messages/${i}/content`, textPath);
    calls.forEach((c, k) => {
      paths
        .add(`/messages/${i}/tool_calls/${k}`, c.at)
        .add(`/messages/${i}/tool_calls/${k}/function`, c.at)
        .add(`/messages/${i}/tool_calls/${k}/function/arguments`, `${c.at}/input`);
    });
    out.push(nativeMessage({ role, content: text, images, toolCalls: calls.map((c) => c.call), thinking }));
  }
  if (!first) pushResults();
}

/** The system prompt: a string, or its text blocks concatenated. */
function systemText(system: unknown): { text: string; path: string } {
  if (typeof system === "string") return { text: system, path: "/system" };
  if (!Array.isArray(system)) return { text: "", path: "/system" };
  let text = "";
  for (const b of system) if (isObject(b) && b.type === "text" && typeof b.text === "string") text += b.text;
  return { text, path: system.length === 1 ? "/system/0/text" : "/system" };
}

function convertTools(tools: Json[], paths: PathMap): Json[] {
  return tools.map((t, i) => {
    paths
      .add(`/tools/${i}`, `/tools/${i}`)
      .add(`/tools/${i}/function`, `/tools/${i}`)
      .add(`/tools/${i}/function/parameters`, `/tools/${i}/input_schema`);
    if (typeof t.type === "string" && t.type.startsWith("web_search")) {
      return {
        type: "function",
        function: {
          name: "web_search",
          description:
            "Search the web for current information. Use this to find up-to-date information about any topic.",
          parameters: {
            type: "object",
            required: ["query"],
            properties: { query: { type: "string", description: "The search query to look up on the web" } },
          },
        },
      };
    }
    const name = typeof t.name === "string" ? t.name : "";
    const schema = t.input_schema;
    if (schema !== undefined && schema !== null && !isObject(schema)) {
      throw new DialectError(
        400,
        `invalid input_schema for tool "${name}": json: cannot unmarshal ${Array.isArray(schema) ? "array" : typeof schema} into Go value of type api.ToolFunctionParameters`,
      );
    }
    const fn: Json = { name, description: typeof t.description === "string" ? t.description : "" };
    if (isObject(schema)) fn.parameters = schema;
    return { type: "function", function: fn };
  });
}

/** num_predict from max_tokens, then temperature, top_p, top_k and stop_sequences when given. */
function samplingOptions(r: Json, maxTokens: number, paths: PathMap): Json {
  const options: Json = { num_predict: maxTokens };
  for (const [k, src, type] of [
    ["temperature", "temperature", "float64"],
    ["top_p", "top_p", "float64"],
    ["top_k", "top_k", "int"],
  ] as const) {
    const v = optNumber(r[src], `${STRUCT}.${src}`, type);
    if (v !== undefined) {
      options[k] = v;
      paths.add(`/options/${k}`, `/${src}`);
    }
  }
  const stops = optArray(r.stop_sequences, `${STRUCT}.stop_sequences`, "[]string");
  if (stops && stops.length > 0) {
    options.stop = stops;
    paths.add("/options/stop", "/stop_sequences");
  }
  return options;
}

/** `thinking` enabled or disabled, else an `output_config.effort` level (xhigh read as high). */
function thinkValue(r: Json): unknown {
  const thinkingCfg = optObject(r.thinking, `${STRUCT}.thinking`, "anthropic.ThinkingConfig");
  const outputCfg = optObject(r.output_config, `${STRUCT}.output_config`, "anthropic.OutputConfig");
  let effort = typeof outputCfg?.effort === "string" ? outputCfg.effort.trim().toLowerCase() : "";
  if (effort === "xhigh") effort = "high";
  let think: unknown = thinkingCfg?.type === "enabled" ? true : thinkingCfg?.type === "disabled" ? false : undefined;
  if (think === undefined && ["high", "medium", "low", "max"].includes(effort)) think = effort;
  return think;
}

/** @param ollamaVersion the release whose conversion to reproduce (default: the newest behaviour) */
export function fromAnthropic(body: unknown, ollamaVersion?: string): Converted {
  const resultsFirst = ollamaVersion === undefined || atLeast(ollamaVersion, TOOL_RESULTS_FIRST_SINCE);
  const r = bodyObject(body, `anthropic.${STRUCT}`);
  const model = optString(r.model, `${STRUCT}.model`) ?? "";
  const maxTokens = optNumber(r.max_tokens, `${STRUCT}.max_tokens`, "int") ?? 0;
  const messages = objects(r.messages, `${STRUCT}.messages`, "[]anthropic.MessageParam", "anthropic.MessageParam");
  if (model === "") throw new DialectError(400, "model is required");
  if (maxTokens <= 0) throw new DialectError(400, "max_tokens is required and must be positive");
  if (messages.length === 0) throw new DialectError(400, "messages is required");
  const paths = new PathMap().add("/model", "/model").add("/options/num_predict", "/max_tokens");
  const out: Json[] = [];
  const sys = systemText(r.system);
  if (sys.text !== "") {
    paths.add("/messages/0", "/system").add("/messages/0/content", sys.path);
    out.push(nativeMessage({ role: "system", content: sys.text }));
  }
  messages.forEach((m, j) => convertMessage(m, j, out, paths, resultsFirst));

  const options = samplingOptions(r, maxTokens, paths);

  const declared = objects(r.tools, `${STRUCT}.tools`, "[]anthropic.Tool", "anthropic.Tool");
  // A built-in web_search tool owns the name: a custom tool of that name is dropped.
  const builtin = declared.some((t) => typeof t.type === "string" && t.type.startsWith("web_search"));
  const kept = declared.filter(
    (t) => !(builtin && !(typeof t.type === "string" && t.type.startsWith("web_search")) && t.name === "web_search"),
  );
  const tools = convertTools(kept, paths);

  const think = thinkValue(r);
  const stream = r.stream === true;
  return {
    endpoint: "/api/chat",
    native: nativeChatRequest({ model, messages: out, stream, tools, options, think }),
    paths,
    stream,
  };
}

/** anthropic.EstimateInputTokens: a quarter of the characters of system, messages and tools (message_start's count). */
export function estimateInputTokens(body: Json): number {
  const len = (v: unknown): number =>
    typeof v === "string"
      ? new TextEncoder().encode(v).length
      : v === undefined || v === null
        ? 0
        : JSON.stringify(v).length;
  let total =
    typeof body.system === "string"
      ? len(body.system)
      : Array.isArray(body.system)
        ? body.system.reduce((n: number, b) => n + (isObject(b) ? len(b.text) : 0), 0)
        : 0;
  const messages = Array.isArray(body.messages) ? body.messages : [];
  for (const m of messages) {
    if (!isObject(m)) continue;
    total += len(m.role);
    if (typeof m.content === "string") total += len(m.content);
    else if (Array.isArray(m.content)) {
      for (const b of m.content) {
        if (!isObject(b)) continue;
        total += len(b.text) + len(b.thinking);
        if (b.type === "tool_use" || b.type === "tool_result") total += len(b);
      }
    }
  }
  for (const t of Array.isArray(body.tools) ? body.tools : [])
    if (isObject(t)) total += len(t.name) + len(t.description) + len(t.input_schema);
  const tokens = Math.floor(total / 4);
  return tokens === 0 && (messages.length > 0 || body.system !== undefined) ? 1 : tokens;
}
