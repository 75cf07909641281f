/**
 * Server-Sent Events parsing (WHATWG HTML "event stream interpretation"), enough to read MCP SSE
 * responses and OpenAI-style streams back out of a recorded body.
 */

export interface SseEvent {
  event: string;
  data: string;
  id?: string;
  /** Offset (UTF-16 units) in the text just past the blank line that dispatched the event. */
  end: number;
}

/**
 * Splits an event-stream text into dispatched events. Comment lines (`:`) are skipped; `data:` lines
 * are joined with "\n"; an event is dispatched at a blank line. A trailing event without its blank
 * line is not dispatched, as in a browser (the stream ended mid-event).
 */
export function parseSse(text: string): SseEvent[] {
  const events: SseEvent[] = [];
  let data: string[] = [];
  let event = "";
  let id: string | undefined;
  const lineEnd = /\r\n|\r|\n/g;
  let from = 0;
  while (from < text.length) {
    const m = lineEnd.exec(text);
    // The last line has no line end: it cannot dispatch, and it is the end of the text.
    const line = text.slice(from, m ? m.index : text.length);
    from = m ? m.index + m[0].length : text.length;
    if (line === "") {
      if (m && data.length > 0)
        events.push({
          event: event || "message",
          data: data.join("\n"),
          ...(id === undefined ? {} : { id }),
          end: from,
        });
      data = [];
      event = "";
      continue;
    }
    if (line.startsWith(":")) continue;
    const colon = line.indexOf(":");
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? "" : line.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    if (field === "data") data.push(value);
    else if (field === "event") event = value;
    else if (field === "id") id = value;
  }
  return events;
}
