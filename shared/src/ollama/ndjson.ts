/**
 * Ollama's streaming framing: `application/x-ndjson`, one `json.Marshal(chunk) + "\n"` per line
 * (server/routes.go `streamResponse`). Non-streaming bodies are gin `c.JSON`: the same bytes with no
 * trailing newline and `application/json; charset=utf-8`.
 */
import { parseJson } from "../json/parse";
import { goJson } from "./go-json";

export const NDJSON_CONTENT_TYPE = "application/x-ndjson";
/** What gin's `c.JSON` sends, for bodies and error bodies alike. */
export const JSON_CONTENT_TYPE = "application/json; charset=utf-8";

/** One NDJSON line, newline included. */
export function ndjsonLine(value: unknown): string {
  return `${goJson(value)}\n`;
}

/**
 * Split a complete NDJSON body into parsed values. Blank lines are skipped (a trailing newline
 * leaves one); a line that is not JSON throws, naming its number, because a half-read stream must
 * never look like a shorter valid one.
 */
export function parseNdjson(text: string): unknown[] {
  const values: unknown[] = [];
  const lines = text.split("\n");
  for (const [i, line] of lines.entries()) {
    if (line.trim() === "") continue;
    try {
      values.push(parseJson(line));
    } catch (err) {
      throw new Error(`NDJSON line ${i + 1} is not JSON: ${line.slice(0, 80)}`, { cause: err });
    }
  }
  return values;
}
