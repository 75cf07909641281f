/**
 * Read the JSON messages of a `text/event-stream` body, one per SSE event (`data:` lines joined by
 * "\n"). An MCP server may answer a POST with such a stream: request-related notifications first, then
 * the response. Parsing follows the HTML Living Standard's event-stream rules (CRLF, CR or LF line ends;
 * comment lines starting with ":"; one optional space after the colon).
 */
import { parseJson } from "@hopscope/shared/json/parse";
export async function* sseMessages(body: ReadableStream<Uint8Array>): AsyncGenerator<unknown> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  let data: string[] = [];
  /** Feed one line; returns the event's JSON when the line ends an event. */
  const line = (text: string): { message: unknown } | null => {
    if (text === "") {
      const joined = data.join("\n");
      const had = data.length > 0;
      data = [];
      return had ? { message: parseData(joined) } : null;
    }
    if (text.startsWith(":")) return null;
    const colon = text.indexOf(":");
    const field = colon === -1 ? text : text.slice(0, colon);
    const value = colon === -1 ? "" : text.slice(colon + 1).replace(/^ /, "");
    if (field === "data") data.push(value);
    return null;
  };
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) {
        buffer += decoder.decode();
        break;
      }
      buffer += decoder.decode(value, { stream: true });
      // A trailing "\r" stays in the buffer: it may be the first half of a CRLF split across chunks.
      let m: RegExpExecArray | null;
      while ((m = /\r\n|\n|\r(?=[^\n])/.exec(buffer))) {
        const event = line(buffer.slice(0, m.index));
        buffer = buffer.slice(m.index + m[0].length);
        if (event) yield event.message;
      }
    }
    // A stream that ends without the final blank line still delivered its last event.
    for (const text of [buffer.replace(/\r$/, ""), ""]) {
      const event = line(text);
      if (event) yield event.message;
    }
  } finally {
    // The caller may stop at the response it wanted; closing the stream is also MCP's cancellation signal.
    await reader.cancel();
  }
}

function parseData(text: string): unknown {
  try {
    return parseJson(text);
  } catch (err) {
    throw new Error(`an SSE event is not JSON: ${text.slice(0, 200)}`, { cause: err });
  }
}
