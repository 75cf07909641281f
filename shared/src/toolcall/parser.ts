/**
 * Ollama's generic tool-call parser (`tools.Parser`, tools/tools.go), which is what turns qwen2.5's raw
 * text into `message.tool_calls`: qwen2.5 has no built-in parser, so Ollama uses this one with the tag it
 * finds in the template (`<tool_call>`, see ./parse-tag.ts). The state machine is reproduced step by step,
 * quirks included, so the stand-in model (apps/model-sim) answers exactly as a real Ollama would:
 *
 * - before the tag, text is content; a trailing partial tag (`<tool`) is held back until it is decided;
 * - after the tag, calls are parsed for ever: text after the calls is dropped, never returned;
 * - a call needs a declared tool name somewhere in the buffer (earliest wins, the longer at a tie; a buffer
 *   ending in a prefix of a name waits) and the first balanced JSON object that decodes (./find-arguments.ts);
 * - an undeclared tool, invalid JSON or `{"name": …}` without arguments gives no call and no content.
 *
 * The reverse direction (calls → the text qwen2.5 generated) is ./raw-output.ts; Ollama's per-chunk glue
 * around `Add` is ./chat-glue.ts.
 */
import { findArguments, type JsonObject } from "./find-arguments";

/** The part of a declared tool the parser looks at (an `OllamaTool` fits). */
export interface DeclaredTool {
  function: { name: string };
}

/** One parsed call, shaped like Ollama's `api.ToolCall` before `toolCallId()` gives it an `id`. */
export interface ParsedToolCall {
  function: { index: number; name: string; arguments: JsonObject };
}

/** What one `add()` returns: the calls it completed and the content to stream to the user now. */
export interface ParserOutput {
  calls: ParsedToolCall[];
  content: string;
}

export interface ToolCallParserOptions {
  /**
   * Ollama version whose `done()` to reproduce (matters only for the `{` and `[` tags): from 0.30.12 a
   * closing bracket inside a JSON string does not end the call. Default "0.13.5".
   */
  ollamaVersion?: string;
}

/** The tag qwen2.5's template yields (tools/template.go → parseTag). */
export const QWEN_TOOL_CALL_TAG = "<tool_call>";

type State = "looking-for-tag" | "tool-calling" | "done";

/**
 * Go's `findTag`: the offset of the tag in `buffer` (found), or of a suffix of `buffer` that is a prefix
 * of the tag (held back, not found), or -1.
 */
export function findTag(buffer: string, tag: string): { index: number; found: boolean } {
  const index = buffer.indexOf(tag);
  if (index > -1) return { index, found: true };
  for (let i = Math.min(buffer.length, tag.length); i > 0; i--) {
    if (buffer.endsWith(tag.slice(0, i))) return { index: buffer.length - i, found: false };
  }
  return { index: -1, found: false };
}

/**
 * Go's `findTool`: the declared tool whose name occurs earliest in `buffer` (the longer name at the same
 * offset) and the offset just past that name; null while the buffer ends with a proper prefix of a name,
 * because "get" may still become "get_weather".
 */
export function findTool<T extends DeclaredTool>(tools: readonly T[], buffer: string): { tool: T; end: number } | null {
  if (buffer.length === 0) return null;
  const longest = Math.max(0, ...tools.map((t) => t.function.name.length));
  for (let i = 1; i <= Math.min(buffer.length, longest); i++) {
    const tail = buffer.slice(buffer.length - i);
    if (tools.some((t) => tail.length < t.function.name.length && t.function.name.startsWith(tail))) return null;
  }
  let found: T | null = null;
  let start = -1;
  let end = -1;
  for (const tool of tools) {
    const name = tool.function.name;
    const pos = buffer.indexOf(name);
    if (pos === -1) continue;
    if (found !== null && (pos > start || (pos === start && name.length <= found.function.name.length))) continue;
    found = tool;
    start = pos;
    end = pos + name.length;
  }
  return found === null ? null : { tool: found, end };
}

/** `major.minor.patch` of a version string such as "0.13.5", "v0.30.12-rc0"; NaN parts when unparsable. */
function versionAtLeast(version: string, min: readonly [number, number, number]): boolean {
  const parts = version.replace(/^v/, "").split(/[.-]/).slice(0, 3).map(Number);
  for (let i = 0; i < 3; i++) {
    const part = parts[i] ?? 0;
    if (part !== min[i]) return part > min[i]!;
  }
  return true;
}

/** Ollama's streaming tool-call parser. Feed it the model's text chunk by chunk with `add()`. */
export class ToolCallParser {
  readonly tag: string;
  private readonly tools: readonly DeclaredTool[];
  private readonly doneSkipsStrings: boolean;
  private state: State = "looking-for-tag";
  private buffer = "";
  private n = 0;

  /**
   * @param tools the request's `tools` (only their names matter)
   * @param tag the template's tool-call tag; qwen2.5's `<tool_call>` by default
   */
  constructor(tools: readonly DeclaredTool[], tag: string = QWEN_TOOL_CALL_TAG, options: ToolCallParserOptions = {}) {
    this.tools = tools;
    this.tag = tag;
    this.doneSkipsStrings = versionAtLeast(options.ollamaVersion ?? "0.13.5", [0, 30, 12]);
  }

  /** Text the parser holds back (a partial tag, an unfinished call, or everything after the tag). */
  get pending(): string {
    return this.buffer;
  }

  /** Go's `Add`: the calls completed by this chunk, and the content to send the user now. */
  add(text: string): ParserOutput {
    if (this.state === "done") return { calls: [], content: text };
    this.buffer += text;
    let content = "";
    if (this.state === "looking-for-tag") {
      const { index, found } = findTag(this.buffer, this.tag);
      if (index === -1) {
        content = this.buffer;
        this.buffer = "";
      } else {
        content = this.buffer.slice(0, index);
        this.buffer = this.buffer.slice(index);
      }
      // With a bare `{`/`[` tag only output that starts with JSON can be a call. Go returns without
      // clearing the buffer here, so `content()` at done repeats it: reproduced, not fixed.
      if ((this.tag === "{" || this.tag === "[") && content.trim() !== "") {
        this.state = "done";
        return { calls: [], content: content + this.buffer };
      }
      if (!found) return { calls: [], content };
      this.state = "tool-calling";
    }
    const calls: ParsedToolCall[] = [];
    for (let call = this.parseToolCall(); call !== null; call = this.parseToolCall()) calls.push(call);
    if (this.isDone()) {
      this.state = "done";
      content = this.buffer;
      this.buffer = "";
    }
    return { calls, content };
  }

  /**
   * Go's `Content()`, which Ollama sends as the last chunk's content when the stream ends while the parser
   * is buffering: always "" for `<tool_call>` (whatever was held back is lost), the buffer for `{`/`[`.
   */
  content(): string {
    if (this.n > 0) return "";
    return this.tag === "{" || this.tag === "[" ? this.buffer : "";
  }

  private parseToolCall(): ParsedToolCall | null {
    const match = findTool(this.tools, this.buffer);
    if (match === null) return null;
    const { args, end: argsEnd } = findArguments(match.tool.function.name, this.buffer);
    if (args === null) return null;
    const call: ParsedToolCall = { function: { index: this.n, name: match.tool.function.name, arguments: args } };
    this.n++;
    this.buffer = this.buffer.slice(Math.max(match.end, argsEnd));
    return call;
  }

  /** Go's `done()`: only the `{`/`[` tags ever finish, when their bracket balances. */
  private isDone(): boolean {
    const pair = this.tag === "{" ? ["{", "}"] : this.tag === "[" ? ["[", "]"] : null;
    if (pair === null) return false;
    const [open, close] = pair;
    let count = 0;
    let inString = false;
    let escaped = false;
    for (const c of this.buffer) {
      if (this.doneSkipsStrings) {
        if (escaped) {
          escaped = false;
          continue;
        }
        if (c === "\\") {
          escaped = true;
          continue;
        }
        if (c === '"') {
          inString = !inString;
          continue;
        }
        if (inString) continue;
      }
      if (c === open) count++;
      else if (c === close && --count === 0) return true;
    }
    return false;
  }
}

/**
 * The whole output at once, as `stream: false` aggregates it: the content Ollama would send (text before
 * the first tag, plus `content()` from the final chunk) and every call. Assumes the runner delivered the
 * text in small chunks; the rare chunk holding both prose and a complete call is ./chat-glue.ts's business.
 *
 * @example parseToolCalls('<tool_call>\n{"name": "append", "arguments": {"content": "buy milk"}}\n</tool_call>', tools)
 *   // → { calls: [{ function: { index: 0, name: "append", arguments: { content: "buy milk" } } }], content: "" }
 */
export function parseToolCalls(
  text: string,
  tools: readonly DeclaredTool[],
  tag: string = QWEN_TOOL_CALL_TAG,
  options: ToolCallParserOptions = {},
): ParserOutput {
  const parser = new ToolCallParser(tools, tag, options);
  const { calls, content } = parser.add(text);
  return { calls, content: content + parser.content() };
}
