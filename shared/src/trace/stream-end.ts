/**
 * Whether a model server's answer ended as it should, read from its recorded bytes: the final event of a
 * stream arrived (the Responses API's `response.completed`, Anthropic's `message_stop`, OpenAI's `[DONE]` or a
 * chunk with a `finish_reason`, Ollama's `done: true`), or the whole JSON body of an answer not streamed. An agent that closes the
 * connection the moment it has read the final event (Codex does) leaves the tap an aborted exchange whose
 * answer is complete: the interpretation changes, never the bytes.
 */
import { tryParseJson } from "../json/parse";

const FINAL_EVENTS: readonly RegExp[] = [
  /^data:\s*\[DONE\]\s*$/m,
  /"type"\s*:\s*"(response\.completed|response\.incomplete|message_stop)"/,
  /^event:\s*(response\.completed|response\.incomplete|message_stop)\s*$/m,
  /"finish_reason"\s*:\s*"[^"]+"/,
  /"done"\s*:\s*true/,
];

export function finalEventArrived(responseText: string | null, streamed: boolean): boolean {
  if (responseText === null || responseText.trim() === "") return false;
  if (FINAL_EVENTS.some((re) => re.test(responseText))) return true;
  // An answer asked for whole (stream: false) arrived whole when it parses; a stream's first line parses too.
  return !streamed && tryParseJson(responseText) !== undefined;
}

/**
 * The message a model server refused a request with (a 4xx or 5xx body), in each dialect's error shape:
 * Ollama's `{"error": "…"}`, OpenAI's `{"error": {"message": "…"}}`, Anthropic's `{"type": "error", "error":
 * {"message": "…"}}`; a body that is none of these, as text. Null when the body is empty.
 */
export function refusalMessage(responseText: string | null): string | null {
  if (responseText === null || responseText.trim() === "") return null;
  const json = tryParseJson(responseText) as { error?: unknown; message?: unknown } | undefined;
  const error = json && typeof json === "object" ? json.error : undefined;
  if (typeof error === "string") return error;
  if (error && typeof error === "object" && typeof (error as { message?: unknown }).message === "string")
    return (error as { message: string }).message;
  if (json && typeof json === "object" && typeof json.message === "string") return json.message;
  return responseText.trim();
}
