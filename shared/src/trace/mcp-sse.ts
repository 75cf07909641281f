/**
 * An MCP response sent as Server-Sent Events (Streamable HTTP, as the official SDK servers answer), event
 * by event: the JSON-RPC message each event carries (progress and log notifications before the final
 * response), and where in the body each event ends, so a view can say when it arrived (the chunk that
 * held its end).
 */
import { isRecord } from "./json-text";
import { tryParseJson } from "../json/parse";
import { parseSse } from "../framing/sse";

export interface McpSseEvent {
  index: number;
  /** The SSE event type ("message" when none was given). */
  event: string;
  id?: string;
  data: string;
  /** What the event's JSON-RPC message is; "not JSON-RPC" when its data is not one. */
  kind: "response" | "error" | "notification" | "request" | "not JSON-RPC";
  /** The message's method (notifications, requests), or its id (responses). */
  label: string;
  /** The parsed message (undefined when the data is not JSON). */
  message: unknown;
  /** Byte offset in the body just past the event (UTF-8), to find the chunk it arrived in. */
  endByte: number;
}

const encoder = new TextEncoder();

export function isEventStream(contentType: string | undefined | null): boolean {
  return (contentType ?? "").toLowerCase().includes("text/event-stream");
}

export function mcpSseEvents(text: string): McpSseEvent[] {
  let bytes = 0;
  let chars = 0;
  return parseSse(text).map((e, index) => {
    // Bytes counted incrementally: each event's text is encoded once.
    bytes += encoder.encode(text.slice(chars, e.end)).length;
    chars = e.end;
    const message = tryParseJson(e.data);
    return {
      index,
      event: e.event,
      ...(e.id === undefined ? {} : { id: e.id }),
      data: e.data,
      ...describe(message),
      message,
      endByte: bytes,
    };
  });
}

function describe(m: unknown): Pick<McpSseEvent, "kind" | "label"> {
  if (!isRecord(m) || m.jsonrpc !== "2.0") return { kind: "not JSON-RPC", label: "" };
  if (typeof m.method === "string") return { kind: "id" in m ? "request" : "notification", label: m.method };
  const id = JSON.stringify(m.id ?? null);
  return "error" in m ? { kind: "error", label: `id ${id}` } : { kind: "response", label: `id ${id}` };
}
