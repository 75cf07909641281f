import { goJson } from "../json/go-json";
/**
 * Ollama's streaming framing: `application/x-ndjson`, one `json.Marshal(chunk) + "\n"` per line
 * (server/routes.go `streamResponse`). Non-streaming bodies are gin `c.JSON`: the same bytes with no
 * trailing newline and `application/json; charset=utf-8`. Reading NDJSON back is framing/ndjson.ts.
 */

export const NDJSON_CONTENT_TYPE = "application/x-ndjson";
/** What gin's `c.JSON` sends, for bodies and error bodies alike. */
export const JSON_CONTENT_TYPE = "application/json; charset=utf-8";

/** One NDJSON line, newline included. */
export function ndjsonLine(value: unknown): string {
  return `${goJson(value)}\n`;
}
