/**
 * Ollama's message preparation before the template runs (reference §2.1, §3): role lowercasing, the model's
 * SYSTEM prepended when the first message is not a system message, then `collate`: every system message joined
 * with "\n\n" into .System, and consecutive messages of the same role merged with "\n\n" (tool messages too
 * before 0.9.6). Content keeps spans pointing back at the original request messages.
 */
import type { CallInput, MessageInput } from "./api-values";
import type { Provenance, ProvSpan } from "./gotemplate/values";
import { RenderInputError } from "./tool-decode";
import type { OllamaFeatures } from "./version";

/** A request message, loosely typed: renderChat accepts raw bodies as well as zod-parsed ones. */
export interface LooseMessage {
  role?: unknown;
  content?: unknown;
  thinking?: unknown;
  images?: unknown;
  tool_calls?: unknown;
  tool_name?: unknown;
  tool_call_id?: unknown;
}

export interface Prepared {
  system: { text: string; spans: ProvSpan[] };
  messages: MessageInput[];
  /** Original indices merged into each collated message. */
  origins: number[][];
  defaultSystemUsed: boolean;
  notes: string[];
}

const JOIN = "\n\n";

function contentProv(role: string, i: number): Provenance {
  return {
    kind: role === "tool" ? "tool-result" : role === "system" ? "system" : "message",
    role,
    messageIndex: i,
    path: `/messages/${i}/content`,
  };
}

function asString(x: unknown, path: string): string {
  if (x === undefined || x === null) return "";
  if (typeof x !== "string")
    throw new RenderInputError(path, `expected a string, got ${Array.isArray(x) ? "array" : typeof x}`);
  return x;
}

function toolCalls(m: LooseMessage, i: number): CallInput[] {
  if (m.tool_calls === undefined || m.tool_calls === null) return [];
  if (!Array.isArray(m.tool_calls))
    throw new RenderInputError(`/messages/${i}/tool_calls`, "expected an array of {function:{name, arguments}}");
  return m.tool_calls.map((c: unknown, k: number) => {
    const fn = (c as { function?: Record<string, unknown> } | null)?.function ?? {};
    const args = fn.arguments;
    if (args !== undefined && args !== null && (typeof args !== "object" || Array.isArray(args))) {
      throw new RenderInputError(
        `/messages/${i}/tool_calls/${k}/function/arguments`,
        "expected a JSON object (Ollama answers 400 for a string or array)",
      );
    }
    return {
      ...(typeof (c as { id?: unknown }).id === "string" ? { id: (c as { id: string }).id } : {}),
      ...(typeof fn.index === "number" ? { index: fn.index } : {}),
      name: asString(fn.name, `/messages/${i}/tool_calls/${k}/function/name`),
      arguments: args as Record<string, unknown> | null | undefined,
      messageIndex: i,
      toolCallIndex: k,
    };
  });
}

/** `m.System` insertion and `collate`, for the chat endpoint. `modelSystem` is the model's SYSTEM text. */
export function collateChat(reqMessages: LooseMessage[], modelSystem: string, f: OllamaFeatures): Prepared {
  const notes: string[] = [];
  type Item = MessageInput & { origin: number[] };
  const items: Item[] = reqMessages.map((m, i) => {
    const role = asString(m.role, `/messages/${i}/role`).toLowerCase();
    const content = asString(m.content, `/messages/${i}/content`);
    return {
      role,
      content,
      spans: content ? [{ start: 0, end: content.length, prov: contentProv(role, i) }] : [],
      ...(typeof m.thinking === "string" ? { thinking: m.thinking } : {}),
      ...(Array.isArray(m.images) ? { images: m.images as string[] } : {}),
      toolCalls: toolCalls(m, i),
      ...(typeof m.tool_name === "string" ? { toolName: m.tool_name } : {}),
      ...(typeof m.tool_call_id === "string" ? { toolCallId: m.tool_call_id } : {}),
      origin: [i],
    };
  });
  let defaultSystemUsed = false;
  if (items.length > 0 && items[0]!.role !== "system" && modelSystem !== "") {
    defaultSystemUsed = true;
    const prov: Provenance = { kind: "system", role: "system", path: "model SYSTEM" };
    items.unshift({
      role: "system",
      content: modelSystem,
      spans: [{ start: 0, end: modelSystem.length, prov }],
      toolCalls: [],
      origin: [],
    });
  }

  const system = { text: "", spans: [] as ProvSpan[] };
  let systemCount = 0;
  const collated: Item[] = [];
  for (const m of items) {
    if (m.role === "system") {
      if (systemCount > 0) system.text += JOIN;
      system.spans.push(...shift(m.spans, system.text.length));
      system.text += m.content;
      systemCount++;
    }
    const prev = collated[collated.length - 1];
    if (prev && prev.role === m.role && (m.role !== "tool" || f.mergeToolMessages)) {
      const base = prev.content.length + JOIN.length;
      prev.content += JOIN + m.content;
      prev.spans = [...prev.spans, ...shift(m.spans, base)];
      prev.origin = [...prev.origin, ...m.origin];
      if (m.toolCalls.length > 0) {
        notes.push(
          `Message ${m.origin.join(", ")} was merged into the previous ${m.role} message; Ollama keeps only the first message's tool_calls, so its ${m.toolCalls.length} tool call(s) are not shown to the model.`,
        );
      }
    } else {
      collated.push({ ...m, spans: [...m.spans], origin: [...m.origin] });
    }
  }
  if (systemCount > 1) {
    notes.push(
      `${systemCount} system texts (${defaultSystemUsed ? "the model's SYSTEM and " : ""}every system message) are joined with a blank line into the one system block at the top; Ollama renders no system message in place.`,
    );
  }
  for (const c of collated) {
    if (c.origin.length > 1 && c.role !== "system") {
      notes.push(
        `Messages ${c.origin.join(", ")} (${c.role}) are consecutive with the same role, so Ollama merged them into one message joined by a blank line.`,
      );
    }
  }
  return {
    system,
    messages: collated.map(({ origin: _o, ...m }) => m),
    origins: collated.map((c) => c.origin),
    defaultSystemUsed,
    notes,
  };
}

function shift(spans: ProvSpan[], by: number): ProvSpan[] {
  return spans.map((s) => ({ ...s, start: s.start + by, end: s.end + by }));
}
