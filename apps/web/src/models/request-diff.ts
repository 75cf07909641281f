/**
 * What changed between two consecutive model requests of a trace. The model is stateless: the host
 * resends the whole conversation every turn, so the second request is the first one plus what
 * happened since (the assistant's tool call, the tool result). This diff makes that visible: each
 * message of the newer request is `resent` (identical, same position), `new`, or `changed`; messages
 * the host dropped are `removed`. Tools and the other top-level fields are compared as wholes.
 */
import { stableJson } from "./stable-json";

export type MessageStatus = "resent" | "new" | "changed" | "removed";

export interface MessageDiff {
  status: MessageStatus;
  /** Index in the newer request (in the older one for `removed`). */
  index: number;
  message: unknown;
  /** For `changed`: the message at the same index in the older request. */
  before?: unknown;
}

export interface RequestDiff {
  messages: MessageDiff[];
  newCount: number;
  resentCount: number;
  toolsChanged: boolean;
  /** Other top-level fields (model, options, stream, …) whose values differ. */
  changedFields: string[];
}

function messagesOf(body: unknown): unknown[] {
  if (body && typeof body === "object" && Array.isArray((body as { messages?: unknown }).messages)) {
    return (body as { messages: unknown[] }).messages;
  }
  return [];
}

/** Compares two `/api/chat` request bodies (parsed JSON). */
export function diffChatRequests(before: unknown, after: unknown): RequestDiff {
  const prev = messagesOf(before);
  const next = messagesOf(after);
  const messages: MessageDiff[] = [];
  let newCount = 0;
  let resentCount = 0;
  for (let i = 0; i < next.length; i++) {
    if (i >= prev.length) {
      messages.push({ status: "new", index: i, message: next[i] });
      newCount++;
    } else if (stableJson(prev[i]) === stableJson(next[i])) {
      messages.push({ status: "resent", index: i, message: next[i] });
      resentCount++;
    } else {
      messages.push({ status: "changed", index: i, message: next[i], before: prev[i] });
    }
  }
  for (let i = next.length; i < prev.length; i++) messages.push({ status: "removed", index: i, message: prev[i] });

  const b = (before && typeof before === "object" ? before : {}) as Record<string, unknown>;
  const a = (after && typeof after === "object" ? after : {}) as Record<string, unknown>;
  const fields = new Set([...Object.keys(b), ...Object.keys(a)]);
  fields.delete("messages");
  fields.delete("tools");
  const changedFields = [...fields].filter((f) => stableJson(b[f]) !== stableJson(a[f])).sort();
  return { messages, newCount, resentCount, toolsChanged: stableJson(b.tools) !== stableJson(a.tools), changedFields };
}
