/**
 * An MCP answer sent as Server-Sent Events (as the official SDK servers answer), event by event: when each
 * event arrived (the chunk that held its end), what it carries (a progress or log notification before
 * the final response, or the response), and its JSON-RPC message. Shown in the MCP tab above the answer.
 */
import type { Exchange } from "@hopscope/shared/trace/schemas";
import { headerValue } from "@hopscope/shared/trace/json-text";
import { isEventStream, mcpSseEvents, type McpSseEvent } from "@hopscope/shared/trace/mcp-sse";
import { bodyText, formatBytes, formatMs } from "../models/body";
import { Highlighted } from "./Highlighted";
import s from "./McpSseEvents.module.css";

const KIND: Record<McpSseEvent["kind"], string> = {
  response: "response",
  error: "error response",
  notification: "notification",
  request: "request",
  "not JSON-RPC": "not JSON-RPC",
};

/** Milliseconds after the request started at which byte `end - 1` of the body arrived. */
function arrivedAt(exchange: Exchange, end: number): number | null {
  const chunk = exchange.chunks.find((c) => end - 1 >= c.offset && end - 1 < c.offset + c.size);
  return chunk ? chunk.t : null;
}

export function McpSseEvents({ exchange }: { exchange: Exchange }) {
  const type = exchange.responseBody?.contentType ?? headerValue(exchange.responseHeaders, "content-type");
  if (!isEventStream(type) || !exchange.responseBody) return null;
  const events = mcpSseEvents(bodyText(exchange.responseBody));
  return (
    <section class={s.events} data-testid="mcp-sse-events">
      <h3 class={s.heading}>
        The answer as an event stream (text/event-stream): {events.length} event{events.length === 1 ? "" : "s"}
      </h3>
      {exchange.responseBody.truncated ? (
        <p class={s.note}>
          Only the first {formatBytes(exchange.responseBody.storedSize)} of {formatBytes(exchange.responseBody.size)}{" "}
          were kept: later events are not shown.
        </p>
      ) : null}
      <ol class={s.list}>
        {events.map((e) => {
          const t = arrivedAt(exchange, e.endByte);
          return (
            <li key={e.index} class={s.event} data-kind={e.kind}>
              <div class={s.head}>
                <span class={s.num}>event {e.index + 1}</span>
                <span class={s.at}>{t === null ? "" : `+${formatMs(t)}`}</span>
                <span class={s.kind}>{KIND[e.kind]}</span>
                <code class={s.label}>{e.label}</code>
                {e.event !== "message" ? <span class={s.type}>event: {e.event}</span> : null}
              </div>
              <pre class={s.json}>
                <Highlighted text={e.message === undefined ? e.data : JSON.stringify(e.message, null, 2)} />
              </pre>
            </li>
          );
        })}
      </ol>
    </section>
  );
}
