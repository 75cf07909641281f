/**
 * Causal links inside a trace (see LinkSchema): the model's tool call → the `tools/call` it caused →
 * the next `/api/chat` whose `role: tool` message carried the result back.
 *
 * Matching rules (documented in docs/architecture.md):
 * - tool-call: the first `tools/call` after the model exchange with the same tool name and the same
 *   arguments (deep-equal JSON); each tools/call is claimed at most once, so two identical calls pair in order.
 * - tool-result: the first `model.chat` after the tools/call with a tool message (any dialect, see toolMessagesOf) whose content
 *   equals the tool's result text (or, failing that, whose `tool_name` equals the tool); each message is
 *   claimed at most once.
 */
import type { Classification, Link } from "./schemas";
import { clipText, isRecord } from "./json-text";
import { tryParseJson } from "../json/parse";

/** A `role: tool` message of a chat request: where a tool result travels back to the model. */
export interface ToolMessage {
  messageIndex: number;
  toolName?: string;
  content: string;
}

export interface LinkInput {
  id: number;
  /** Order in the trace (start order). */
  seq: number;
  classification: Classification;
  /** For model.chat exchanges: the tool messages of the request (see toolMessagesOf). */
  toolMessages?: ToolMessage[];
}

/**
 * Where tool results travel back in a chat request body, in every dialect: Ollama's and OpenAI's `role: tool`
 * messages, Anthropic's `tool_result` blocks (their message's index; the tool named by the `tool_use` with the
 * same id) and OpenAI Responses' `function_call_output` items (their index in `input`).
 */
export function toolMessagesOf(request: unknown): ToolMessage[] {
  if (!isRecord(request)) return [];
  const list = Array.isArray(request.messages) ? request.messages : Array.isArray(request.input) ? request.input : [];
  // Tool names by call id, from the calls seen so far (a result names its tool only through its call).
  const names = new Map<string, string>();
  const out: ToolMessage[] = [];
  list.forEach((m: unknown, messageIndex: number) => {
    if (!isRecord(m)) return;
    if (m.type === "function_call" && typeof m.call_id === "string" && typeof m.name === "string")
      names.set(m.call_id, m.name);
    if (m.type === "function_call_output") {
      out.push(functionCallOutput(m, messageIndex, names));
      return;
    }
    if (Array.isArray(m.content)) toolResultBlocks(m.content, messageIndex, names, out);
    if (typeof m.role !== "string" || m.role.toLowerCase() !== "tool") return;
    out.push(roleToolMessage(m, messageIndex));
  });
  return out;
}

/** OpenAI Responses: a `function_call_output` item, its tool named by the `function_call` with its call_id. */
function functionCallOutput(m: Record<string, unknown>, messageIndex: number, names: Map<string, string>): ToolMessage {
  const name = typeof m.call_id === "string" ? names.get(m.call_id) : undefined;
  return {
    messageIndex,
    content: typeof m.output === "string" ? m.output : JSON.stringify(m.output ?? ""),
    ...(name ? { toolName: name } : {}),
  };
}

/** Anthropic: the `tool_result` blocks of a message's content (its `tool_use` blocks name their ids). */
function toolResultBlocks(content: unknown[], messageIndex: number, names: Map<string, string>, out: ToolMessage[]) {
  for (const b of content) {
    if (!isRecord(b)) continue;
    if (b.type === "tool_use" && typeof b.id === "string" && typeof b.name === "string") names.set(b.id, b.name);
    if (b.type !== "tool_result") continue;
    const text =
      typeof b.content === "string"
        ? b.content
        : Array.isArray(b.content)
          ? b.content.map((x) => (isRecord(x) && typeof x.text === "string" ? x.text : "")).join("")
          : "";
    const name = typeof b.tool_use_id === "string" ? names.get(b.tool_use_id) : undefined;
    out.push({ messageIndex, content: text, ...(name ? { toolName: name } : {}) });
  }
}

/** Ollama and OpenAI chat: a `role: tool` message, named by `tool_name` (Ollama) or `name`. */
function roleToolMessage(m: Record<string, unknown>, messageIndex: number): ToolMessage {
  const content = typeof m.content === "string" ? m.content : JSON.stringify(m.content ?? "");
  const name = typeof m.tool_name === "string" ? m.tool_name : typeof m.name === "string" ? m.name : undefined;
  return { messageIndex, content, ...(name ? { toolName: name } : {}) };
}

/** Tool messages of a recorded request body text (convenience for the importer and the UI). */
export function toolMessagesOfText(requestText: string | null): ToolMessage[] {
  return toolMessagesOf(tryParseJson(requestText));
}

export function linkExchanges(items: LinkInput[]): Link[] {
  const ordered = [...items].sort((a, b) => a.seq - b.seq || a.id - b.id);
  const links: Link[] = [];
  const claimedCalls = new Set<number>();
  const claimedMessages = new Set<string>();
  ordered.forEach((ex, i) => {
    const c = ex.classification;
    if (c.kind !== "model.chat") return;
    c.toolCalls.forEach((tc, toolCallIndex) => {
      const target = ordered.slice(i + 1).find((o) => {
        const oc = o.classification;
        return (
          !claimedCalls.has(o.id) &&
          oc.kind === "mcp" &&
          oc.method === "tools/call" &&
          oc.toolName === tc.name &&
          canonical(oc.arguments ?? {}) === canonical(tc.arguments)
        );
      });
      if (!target) return;
      claimedCalls.add(target.id);
      links.push({ kind: "tool-call", from: ex.id, to: target.id, toolName: tc.name, toolCallIndex });
    });
  });
  ordered.forEach((ex, i) => {
    const c = ex.classification;
    if (c.kind !== "mcp" || c.method !== "tools/call" || c.toolName === undefined) return;
    const name = c.toolName;
    for (const later of ordered.slice(i + 1)) {
      if (later.classification.kind !== "model.chat") continue;
      const free = (later.toolMessages ?? []).filter((m) => !claimedMessages.has(`${later.id}:${m.messageIndex}`));
      const hit =
        // resultText is clipped in classifications; compare the same way.
        (c.resultText !== undefined ? free.find((m) => clipText(m.content) === c.resultText) : undefined) ??
        free.find((m) => m.toolName === name);
      if (!hit) continue;
      claimedMessages.add(`${later.id}:${hit.messageIndex}`);
      links.push({ kind: "tool-result", from: ex.id, to: later.id, toolName: name, messageIndex: hit.messageIndex });
      return;
    }
  });
  return links;
}

/** JSON with sorted keys, so argument objects compare by value whatever their key order. */
export function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(",")}]`;
  if (isRecord(v))
    return `{${Object.keys(v)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical(v[k])}`)
      .join(",")}}`;
  return JSON.stringify(v) ?? "null";
}
