/**
 * Lines of a streamed UTF-8 body, as they arrive: the one line splitter under the streaming NDJSON and SSE
 * readers. A multi-byte character or a CRLF split between two chunks stays whole.
 */

export interface LineEnds {
  /** Whether a lone "\r" ends a line (SSE: yes; NDJSON: only "\n" does, "\r" is JSON whitespace). */
  crEndsLine: boolean;
}

/** Yields each line without its line end, then the last unterminated line (even when empty). */
export async function* streamLines(body: ReadableStream<Uint8Array>, ends: LineEnds): AsyncGenerator<string> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  // A trailing "\r" waits for the next chunk: it may be the first half of a CRLF.
  const lineEnd = ends.crEndsLine ? /\r\n|\n|\r(?=[^\n])/ : /\n/;
  let buffer = "";
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) {
        buffer += decoder.decode();
        break;
      }
      buffer += decoder.decode(value, { stream: true });
      let m: RegExpExecArray | null;
      while ((m = lineEnd.exec(buffer))) {
        yield buffer.slice(0, m.index);
        buffer = buffer.slice(m.index + m[0].length);
      }
    }
    yield ends.crEndsLine ? buffer.replace(/\r$/, "") : buffer;
  } finally {
    // The caller may stop at the message it wanted; closing the stream is also MCP's cancellation signal.
    await reader.cancel();
  }
}
