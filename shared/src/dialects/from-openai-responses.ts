/**
 * `POST /v1/responses` → the native chat request (openai.FromResponsesRequest, Ollama ≥ 0.13.3):
 * - `instructions` is a system message first; a string `input` is one user message;
 * - input items: `message` (its text parts concatenated), `function_call` (arguments decoded and appended to the
 *   assistant message before it, or a new assistant message), `function_call_output` → a `tool` message with
 *   `tool_call_id` = the item's `call_id`; `reasoning` becomes the next assistant message's thinking;
 * - a `developer` message keeps its role (convertInputMessage copies `Role`): qwen2.5's template renders only
 *   system, user, assistant and tool messages, so the model never reads a developer message's text;
 * - tools are flat (`{type, name, description, parameters}`) and become native `{type, function: {...}}`;
 *   `namespace` tools as convertTools below;
 * - `max_output_tokens` → num_predict; temperature defaults to 1.0; top_p only when given.
 */
import { DialectError } from "./dialect-error";
import { type Json, bodyObject, isObject, objects, optNumber, optObject, optString, parseJsonText } from "./go-decode";
import { type Converted, nativeChatRequest, nativeMessage, nativeToolCall, thinkFromEffort } from "./native";
import { PathMap } from "./path-map";
import { DEFAULT_OLLAMA_VERSION, atLeast } from "../prompt/version";

const STRUCT = "ResponsesRequest";
const TEXT_PARTS = new Set(["input_text", "output_text"]);

/** The text of a message's content: a string, or its text parts concatenated (images are kept as data). */
function contentText(
  content: unknown,
  at: string,
  where: string,
): { text: string; images: string[]; textPath: string } {
  if (content === undefined || content === null) return { text: "", images: [], textPath: at };
  if (typeof content === "string") return { text: content, images: [], textPath: at };
  if (!Array.isArray(content))
    throw new DialectError(
      400,
      `${where}: content must be a string or array: json: cannot unmarshal ${typeof content} into Go value of type []json.RawMessage`,
    );
  let text = "";
  const images: string[] = [];
  let textPath = at;
  content.forEach((part, k) => {
    const type = isObject(part) ? part.type : undefined;
    if (typeof type === "string" && TEXT_PARTS.has(type)) {
      if (text === "") textPath = `${at}/${k}/text`;
      text += typeof part.text === "string" ? part.text : "";
    } else if (type === "input_image") {
      const url = (part as Json).image_url;
      if (typeof url === "string" && url !== "") images.push(url.replace(/^data:[^,]*;base64,/, ""));
    } else if (type === "input_file") throw new DialectError(400, "file inputs are not currently supported");
    else throw new DialectError(400, `${where}: content[${k}]: unknown content type: ${JSON.stringify(type ?? "")}`);
  });
  return { text, images, textPath };
}

/** What converting the input items carries from one item to the next. */
interface InputState {
  items: Json[];
  messages: Json[];
  paths: PathMap;
  /** A `reasoning` item's text, waiting for the next assistant message. */
  pendingThinking: string;
}

function convertInput(items: Json[], messages: Json[], paths: PathMap): void {
  const state: InputState = { items, messages, paths, pendingThinking: "" };
  items.forEach((item, i) => convertItem(state, item, i));
  if (state.pendingThinking) messages.push(nativeMessage({ role: "assistant", thinking: state.pendingThinking }));
}

function convertItem(state: InputState, item: Json, i: number): void {
  const type =
    typeof item.type === "string" && item.type !== "" ? item.type : typeof item.role === "string" ? "message" : "";
  switch (type) {
    case "reasoning":
      state.pendingThinking = typeof item.encrypted_content === "string" ? item.encrypted_content : "";
      return;
    case "message":
      return convertMessageItem(state, item, i);
    case "function_call":
      return convertFunctionCall(state, item, i);
    case "function_call_output":
      return convertFunctionCallOutput(state, item, i);
    case "web_search_call":
      return;
    case "":
      throw new DialectError(400, `input[${i}]: input item missing required 'type' field`);
    default:
      throw new DialectError(400, `input[${i}]: unknown input item type: "${type}"`);
  }
}

/** Gives the waiting reasoning text to this assistant message. */
function takeThinking(state: InputState, message: Json): void {
  if (!state.pendingThinking) return;
  message.thinking = state.pendingThinking;
  state.pendingThinking = "";
}

function convertMessageItem(state: InputState, item: Json, i: number): void {
  const { items, messages, paths } = state;
  const at = `/input/${i}`;
  const last = messages[messages.length - 1];
  const role = optString(item.role, `${STRUCT}.input.role`) ?? "";
  const c = contentText(item.content, `${at}/content`, `input[${i}]`);
  const next = items[i + 1];
  const answers = isObject(next) && next.type === "function_call_output" ? next.call_id : undefined;
  const lastCalls =
    last && last.role === "assistant" && Array.isArray(last.tool_calls) ? (last.tool_calls as Json[]) : [];
  // An assistant message replayed between a call and its output joins the call's message.
  if (role === "assistant" && answers !== undefined && lastCalls.some((tc) => tc.id === answers)) {
    last!.content =
      (last!.content as string) !== "" && c.text !== ""
        ? `${last!.content as string}\n${c.text}`
        : `${last!.content as string}${c.text}`;
    takeThinking(state, last!);
    return;
  }
  paths.add(`/messages/${messages.length}`, at).add(`/messages/${messages.length}/content`, c.textPath);
  messages.push(
    nativeMessage({
      role,
      content: c.text,
      images: c.images,
      thinking: role === "assistant" ? state.pendingThinking : undefined,
    }),
  );
  if (role === "assistant") state.pendingThinking = "";
}

/** A function call's `arguments` text, decoded to the object the native call carries. */
function callArguments(item: Json): Json {
  const argsText = optString(item.arguments, `${STRUCT}.input.arguments`) ?? "";
  if (argsText === "") return {};
  const parsed = parseJsonText(argsText);
  if (!parsed.ok) throw new DialectError(400, `failed to parse function call arguments: ${parsed.error}`);
  if (!isObject(parsed.value))
    throw new DialectError(400, "failed to parse function call arguments: json: cannot unmarshal into an object");
  return parsed.value;
}

function convertFunctionCall(state: InputState, item: Json, i: number): void {
  const { messages, paths } = state;
  const at = `/input/${i}`;
  const last = messages[messages.length - 1];
  const args = callArguments(item);
  const call = nativeToolCall(
    optString(item.call_id, `${STRUCT}.input.call_id`),
    optString(item.name, `${STRUCT}.input.name`) ?? "",
    args,
  );
  if (last && last.role === "assistant") {
    const calls = (last.tool_calls as unknown[] | undefined) ?? [];
    paths
      .add(`/messages/${messages.length - 1}/tool_calls/${calls.length}`, at)
      .add(`/messages/${messages.length - 1}/tool_calls/${calls.length}/function`, at);
    last.tool_calls = [...calls, call];
    takeThinking(state, last);
    return;
  }
  paths
    .add(`/messages/${messages.length}`, at)
    .add(`/messages/${messages.length}/tool_calls/0`, at)
    .add(`/messages/${messages.length}/tool_calls/0/function`, at);
  messages.push(nativeMessage({ role: "assistant", toolCalls: [call], thinking: state.pendingThinking }));
  state.pendingThinking = "";
}

function convertFunctionCallOutput(state: InputState, item: Json, i: number): void {
  const { messages, paths } = state;
  const at = `/input/${i}`;
  const out = item.output;
  const c =
    typeof out === "string" || out === undefined || out === null
      ? { text: out ?? "", images: [], textPath: `${at}/output` }
      : contentText(out, `${at}/output`, `input[${i}]`);
  paths.add(`/messages/${messages.length}`, at).add(`/messages/${messages.length}/content`, c.textPath);
  messages.push(
    nativeMessage({
      role: "tool",
      content: c.text as string,
      images: c.images,
      toolCallId: optString(item.call_id, `${STRUCT}.input.call_id`),
    }),
  );
}

/** The first release that expands a `namespace` tool into its member functions (ollama/ollama#17593). */
export const NAMESPACE_TOOLS_SINCE = "0.32.7";

function convertTool(t: Json, at: string, paths: PathMap, k: number, name: string): Json {
  paths.add(`/tools/${k}`, at).add(`/tools/${k}/function`, at);
  const fn: Json = { name, description: optString(t.description, `${STRUCT}.tools.description`) ?? "" };
  const params = optObject(t.parameters, `${STRUCT}.tools.parameters`, "map[string]interface {}");
  if (params) fn.parameters = params;
  return { type: typeof t.type === "string" ? t.type : "", function: fn };
}

/** The first release that declares a built-in `web_search` tool to the model as a function (ollama/ollama#17686). */
export const WEB_SEARCH_FUNCTION_SINCE = "0.32.10";

/** openai/responses.go `WebSearchFunctionTool`: what a `{type: "web_search"}` tool becomes for the model. */
const WEB_SEARCH_FUNCTION: Json = {
  type: "function",
  function: {
    name: "web_search",
    description: "Search the web for current information.",
    parameters: {
      type: "object",
      required: ["query"],
      properties: { query: { type: "string", description: "The search query." } },
    },
  },
};

/**
 * openai/responses.go `convertTools`: from 0.32.7 a `namespace` tool expands to its members, each named
 * `<namespace>.<name>` (Codex's `mcp__notes` holding `append` reaches the model as `mcp__notes.append`), nested
 * namespaces recursively. Before, `convertTool` kept the namespace itself as one function of type "namespace"
 * with no parameters and dropped its `tools`: the model never saw the functions inside.
 */
function convertTools(tools: Json[], paths: PathMap, version: string): Json[] {
  const expand = atLeast(version, NAMESPACE_TOOLS_SINCE);
  // Before 0.32.10 a web_search tool went through convertTool like any other: type "web_search", name "".
  const webSearch = atLeast(version, WEB_SEARCH_FUNCTION_SINCE) && tools.some((t) => t.type === "web_search");
  const out: Json[] = [];
  const walk = (t: Json, at: string, prefix: string) => {
    const own = optString(t.name, `${STRUCT}.tools.name`) ?? "";
    const name = prefix !== "" && !own.startsWith(prefix) ? prefix + own : own;
    if (!expand || t.type !== "namespace") {
      // The built-in tool owns the name: a declared function called web_search would make a call ambiguous.
      if (webSearch && name === "web_search") return;
      out.push(convertTool(t, at, paths, out.length, name));
      return;
    }
    const members = objects(t.tools, `${STRUCT}.tools.tools`, "[]openai.ResponsesTool", "openai.ResponsesTool");
    members.forEach((m, j) => walk(m, `${at}/tools/${j}`, name !== "" ? `${name}.` : ""));
  };
  tools.forEach((t, i) => {
    if (!webSearch || t.type !== "web_search") return walk(t, `/tools/${i}`, "");
    paths.add(`/tools/${out.length}`, `/tools/${i}`);
    out.push(structuredClone(WEB_SEARCH_FUNCTION));
  });
  return out;
}

export function fromOpenAiResponses(body: unknown, ollamaVersion = DEFAULT_OLLAMA_VERSION): Converted {
  const r = bodyObject(body, `openai.${STRUCT}`);
  const messages: Json[] = [];
  const paths = new PathMap().add("/model", "/model");
  const instructions = optString(r.instructions, `${STRUCT}.instructions`) ?? "";
  if (instructions !== "") {
    paths.add("/messages/0", "/instructions").add("/messages/0/content", "/instructions");
    messages.push(nativeMessage({ role: "system", content: instructions }));
  }
  if (typeof r.input === "string") {
    if (r.input !== "") {
      paths.add(`/messages/${messages.length}`, "/input").add(`/messages/${messages.length}/content`, "/input");
      messages.push(nativeMessage({ role: "user", content: r.input }));
    }
  } else if (r.input !== undefined && r.input !== null) {
    if (!Array.isArray(r.input))
      throw new DialectError(
        400,
        `input must be a string or array: json: cannot unmarshal ${typeof r.input} into Go value of type []json.RawMessage`,
      );
    convertInput(objects(r.input, `${STRUCT}.input`, "[]json.RawMessage", "json.RawMessage"), messages, paths);
  }
  const options: Json = { temperature: optNumber(r.temperature, `${STRUCT}.temperature`) ?? 1.0 };
  const topP = optNumber(r.top_p, `${STRUCT}.top_p`);
  if (topP !== undefined) options.top_p = topP;
  const maxOut = optNumber(r.max_output_tokens, `${STRUCT}.max_output_tokens`, "int");
  if (maxOut !== undefined) {
    options.num_predict = maxOut;
    paths.add("/options/num_predict", "/max_output_tokens");
  }
  const reasoning = optObject(r.reasoning, `${STRUCT}.reasoning`, "openai.ResponsesReasoning");
  const text = optObject(r.text, `${STRUCT}.text`, "openai.ResponsesText");
  const format = isObject(text?.format) && text.format.type === "json_schema" ? text.format.schema : undefined;
  const stream = r.stream === true;
  const tools = convertTools(
    objects(r.tools, `${STRUCT}.tools`, "[]openai.ResponsesTool", "openai.ResponsesTool"),
    paths,
    ollamaVersion,
  );
  const native = nativeChatRequest({
    model: optString(r.model, `${STRUCT}.model`) ?? "",
    messages,
    stream,
    format,
    tools,
    options,
    think: thinkFromEffort(optString(reasoning?.effort, `${STRUCT}.reasoning.effort`)),
  });
  return { endpoint: "/api/chat", native, paths, stream };
}
