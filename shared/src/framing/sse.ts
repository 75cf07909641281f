/**
 * Server-Sent Events parsing (WHATWG HTML "event stream interpretation"): whole recorded texts (MCP SSE
 * responses, OpenAI-style streams read back out of a recorded body) and live streams (an MCP client
 * reading a POST's answer). Comment lines (`:`) are skipped; `data:` lines are joined with "\n"; one
 * optional space follows the colon; an event is dispatched at a blank line.
 */
import { parseJson } from "../json/parse";
import { streamLines } from "./lines";

export interface SseEvent {
  event: string;
  data: string;
  id?: string;
  /** Offset (UTF-16 units) in the text just past the blank line that dispatched the event. */
  end: number;
}

type Dispatched = Omit<SseEvent, "end">;

/** The event-stream state between lines: fed one line at a time, it returns an event at a blank line. */
class SseLineReader {
  private data: string[] = [];
  private event = "";
  private id: string | undefined;

  line(line: string): Dispatched | null {
    if (line === "") {
      const out =
        this.data.length > 0
          ? {
              event: this.event || "message",
              data: this.data.join("\n"),
              ...(this.id === undefined ? {} : { id: this.id }),
            }
          : null;
      this.data = [];
      this.event = "";
      return out;
    }
    if (line.startsWith(":")) return null;
    const colon = line.indexOf(":");
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? "" : line.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    if (field === "data") this.data.push(value);
    else if (field === "event") this.event = value;
    else if (field === "id") this.id = value;
    return null;
  }
}

/**
 * Splits a recorded event-stream text into dispatched events. A trailing event without its blank line
 * is not dispatched, as in a browser (the stream ended mid-event).
 */
export function parseSse(text: string): SseEvent[] {
  const events: SseEvent[] = [];
  const reader = new SseLineReader();
  const lineEnd = /\r\n|\r|\n/g;
  let from = 0;
  while (from < text.length) {
    const m = lineEnd.exec(text);
    // The last line has no line end: it cannot dispatch, and it is the end of the text.
    const line = text.slice(from, m ? m.index : text.length);
    from = m ? m.index + m[0].length : text.length;
    const event = reader.line(line);
    if (event) events.push({ ...event, end: from });
  }
  return events;
}

/**
 * The JSON message of each event of a live `text/event-stream` body, as the events arrive. A stream
 * that ends without the final blank line still delivered its last event (a client has nothing else to
 * wait for); an event whose data is not JSON throws rather than being skipped.
 */
export async function* sseJsonStream(body: ReadableStream<Uint8Array>): AsyncGenerator<unknown> {
  const reader = new SseLineReader();
  for await (const line of streamLines(body, { crEndsLine: true })) {
    const event = reader.line(line);
    if (event) yield parseEventData(event.data);
  }
  const last = reader.line("");
  if (last) yield parseEventData(last.data);
}

function parseEventData(text: string): unknown {
  try {
    return parseJson(text);
  } catch (err) {
    throw new Error(`an SSE event is not JSON: ${text.slice(0, 200)}`, { cause: err });
  }
}
