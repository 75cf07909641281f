/**
 * Read an `application/x-ndjson` body (Ollama's streaming format: one JSON object per "\n"-terminated
 * line) as parsed values. A line that is not JSON is an error, never skipped: a lost chunk would be a
 * silently wrong answer.
 */
import { parseJson } from "@hopscope/shared/json/parse";
export async function* ndjsonLines(body: ReadableStream<Uint8Array>): AsyncGenerator<unknown> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) {
        buffer += decoder.decode();
        break;
      }
      buffer += decoder.decode(value, { stream: true });
      let nl: number;
      while ((nl = buffer.indexOf("\n")) !== -1) {
        const line = buffer.slice(0, nl).trim();
        buffer = buffer.slice(nl + 1);
        if (line !== "") yield parseLine(line);
      }
    }
    if (buffer.trim() !== "") yield parseLine(buffer.trim());
  } finally {
    await reader.cancel();
  }
}

function parseLine(line: string): unknown {
  try {
    return parseJson(line);
  } catch (err) {
    throw new Error(`a streamed line is not JSON: ${line.slice(0, 200)}`, { cause: err });
  }
}
