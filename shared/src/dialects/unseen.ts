/**
 * What a client sent that never reaches the model, each with the JSON pointer in the client's own body it came
 * from: messages whose role the template renders no turn for (Codex's `developer` instructions under qwen2.5),
 * tools the conversion or the template drops (the nested tools of a Responses `namespace` tool before Ollama
 * 0.32.7), keys Ollama's Go structs have no place for, and top-level settings Ollama's conversion never reads.
 *
 * The settings each dialect's conversion reads are the fields its Go code uses (v0.32.15): anthropic/anthropic.go
 * `FromMessagesRequest` (MessagesRequest), openai/responses.go `FromResponsesRequest` (ResponsesRequest),
 * openai/openai.go `FromChatRequest` and `FromCompleteRequest`, plus what middleware/openai.go and
 * middleware/anthropic.go read (`stream_options`). Anthropic `thinking`/`output_config.effort` become `think`, which
 * ChatHandler drops for a model that cannot think when the request came through the Anthropic middleware
 * (server/routes.go, `relax_thinking`).
 */
import type { Dialect } from "./dialect";
import type { Converted } from "./native";
import { isObject, type Json } from "./go-decode";
import type { Segment } from "../prompt/segments";

export interface UnseenItem {
  kind: "role" | "tool" | "field" | "option";
  clientPath: string;
  what: string;
  why: string;
}

/** What both OpenAI conversions read (openai.go FromChatRequest, FromCompleteRequest) and the middleware's stream_options. */
const OPENAI_READ = [
  "model",
  "stream",
  "stream_options",
  "max_tokens",
  "seed",
  "stop",
  "temperature",
  "frequency_penalty",
  "presence_penalty",
  "top_p",
];

/** Top-level keys each dialect's conversion reads; anything else in the body is decoded (or not) and left unused. */
const READ: Record<Dialect, ReadonlySet<string>> = {
  ollama: new Set(),
  "ollama-generate": new Set(),
  anthropic: new Set([
    "model",
    "max_tokens",
    "messages",
    "system",
    "stream",
    "temperature",
    "top_p",
    "top_k",
    "stop_sequences",
    "tools",
    "thinking",
    "output_config",
  ]),
  "openai-chat": new Set([
    ...OPENAI_READ,
    "messages",
    "response_format",
    "tools",
    "reasoning",
    "reasoning_effort",
    "logprobs",
    "top_logprobs",
    "_debug_render_only",
  ]),
  "openai-completions": new Set([...OPENAI_READ, "prompt", "suffix", "logprobs", "_debug_render_only"]),
  "openai-responses": new Set([
    "model",
    "input",
    "instructions",
    "max_output_tokens",
    "reasoning",
    "temperature",
    "text",
    "tools",
    "top_p",
    "stream",
  ]),
};

export interface UnseenInput {
  dialect: Dialect;
  /** The client's body as sent. */
  client: unknown;
  converted: Converted;
  /** The rendered prompt's segments (what the template printed, and from which native field). */
  segments: readonly Segment[];
  /** Native JSON pointers of keys the Go structs dropped while decoding tools (render's `dropped`). */
  droppedKeys: readonly string[];
  /** Whether the model can think (its template reads `.Think`): without, Anthropic thinking settings are dropped. */
  canThink: boolean;
}

const chars = (n: number): string => `${n.toLocaleString("en")} character${n === 1 ? "" : "s"}`;

/** Messages and tools of the native request that the template printed nothing of. */
function unprinted(input: UnseenInput): UnseenItem[] {
  const { converted, segments } = input;
  const printedMessages = new Set<number>();
  const printedTools = new Set<number>();
  for (const s of segments) {
    if (s.kind === "template" || s.kind === "special") continue;
    if (s.messageIndex !== undefined) printedMessages.add(s.messageIndex);
    if (s.toolIndex !== undefined) printedTools.add(s.toolIndex);
  }
  const out: UnseenItem[] = [];
  const messages = Array.isArray(converted.native.messages) ? (converted.native.messages as Json[]) : [];
  messages.forEach((m, i) => {
    const content = typeof m.content === "string" ? m.content : "";
    const hasCalls = Array.isArray(m.tool_calls) && m.tool_calls.length > 0;
    if (printedMessages.has(i) || (content === "" && !hasCalls)) return;
    const role = typeof m.role === "string" ? m.role : "";
    out.push({
      kind: "role",
      clientPath: converted.paths.map(`/messages/${i}`) ?? `/messages/${i}`,
      what: `a "${role}" message (${chars(content.length)})`,
      why: `the model's template renders no turn for the role "${role}", so Ollama passes the message to it and it prints nothing`,
    });
  });
  const tools = Array.isArray(converted.native.tools) ? (converted.native.tools as Json[]) : [];
  if (messages.length > 0)
    tools.forEach((t, i) => {
      if (printedTools.has(i)) return;
      const name = isObject(t.function) && typeof t.function.name === "string" ? t.function.name : `#${i + 1}`;
      out.push({
        kind: "tool",
        clientPath: converted.paths.map(`/tools/${i}`) ?? `/tools/${i}`,
        what: `the tool ${name}`,
        why: "the model's template prints no tools",
      });
    });
  return out;
}

/** Responses `namespace` tools whose member functions did not become native tools. */
function namespaceMembers(input: UnseenInput): UnseenItem[] {
  const body = input.client;
  if (input.dialect !== "openai-responses" || !isObject(body) || !Array.isArray(body.tools)) return [];
  const tools = Array.isArray(input.converted.native.tools) ? (input.converted.native.tools as Json[]) : [];
  const names = new Set(tools.map((t) => (isObject(t.function) ? t.function.name : undefined)));
  const out: UnseenItem[] = [];
  body.tools.forEach((t, i) => {
    if (!isObject(t) || t.type !== "namespace" || !Array.isArray(t.tools)) return;
    const ns = typeof t.name === "string" ? t.name : "";
    t.tools.forEach((member, k) => {
      const name = isObject(member) && typeof member.name === "string" ? member.name : "";
      const qualified = ns !== "" && !name.startsWith(`${ns}.`) ? `${ns}.${name}` : name;
      if (names.has(qualified) || names.has(name)) return;
      out.push({
        kind: "tool",
        clientPath: `/tools/${i}/tools/${k}`,
        what: `the tool ${qualified} (inside the namespace tool ${ns})`,
        why: "Ollama before 0.32.7 keeps a namespace tool as one function named after it and drops the tools inside (0.32.7 expands them)",
      });
    });
  });
  return out;
}

/** Keys the Go structs dropped, one line per key name (every tool's `additionalProperties` is one line). */
function droppedFields(input: UnseenInput): UnseenItem[] {
  const byKey = new Map<string, string[]>();
  for (const p of input.droppedKeys) {
    const key = p
      .slice(p.lastIndexOf("/") + 1)
      .replace(/~1/g, "/")
      .replace(/~0/g, "~");
    byKey.set(key, [...(byKey.get(key) ?? []), input.converted.paths.map(p) ?? p]);
  }
  return [...byKey].map(([key, paths]) => ({
    kind: "field" as const,
    clientPath: paths[0]!,
    what: `"${key}"${paths.length > 1 ? ` (in ${paths.length} places)` : ""}`,
    why: "Ollama's Go structs for a tool's parameters have no place for this key, so decoding drops it",
  }));
}

/** Top-level settings the dialect's conversion never reads, and thinking settings dropped for a model that cannot think. */
function ignoredSettings(input: UnseenInput): UnseenItem[] {
  const body = input.client;
  const read = READ[input.dialect];
  if (!isObject(body) || read.size === 0) return [];
  const out: UnseenItem[] = Object.keys(body)
    .filter((k) => !read.has(k))
    .map((k) => ({
      kind: "option" as const,
      clientPath: `/${k.replace(/~/g, "~0").replace(/\//g, "~1")}`,
      what: `"${k}"`,
      why: "Ollama's conversion of this dialect never reads it",
    }));
  if (input.dialect === "anthropic" && !input.canThink) {
    const why =
      "the model cannot think, and for an Anthropic request Ollama drops the thinking setting instead of refusing it";
    if (body.thinking !== undefined) out.push({ kind: "option", clientPath: "/thinking", what: '"thinking"', why });
    if (isObject(body.output_config) && body.output_config.effort !== undefined)
      out.push({ kind: "option", clientPath: "/output_config/effort", what: '"output_config.effort"', why });
  }
  return out;
}

/** Everything the client sent that the model never sees, in the order: messages, tools, fields, settings. */
export function unseenParts(input: UnseenInput): UnseenItem[] {
  return [...unprinted(input), ...namespaceMembers(input), ...droppedFields(input), ...ignoredSettings(input)];
}
