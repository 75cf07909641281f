/**
 * HTTP framing of the dialect endpoints, as Ollama's middleware writers do it: a whole body is
 * `json.NewEncoder(w).Encode(…)` (Go JSON plus a newline, `application/json`); a stream is `text/event-stream`
 * with each native chunk turned into its dialect's SSE events as it is produced; an error is the dialect's
 * error shape with the status Ollama gives (the middleware's own refusals without the newline, as gin's
 * AbortWithStatusJSON writes them).
 */
import type { DialectWriter } from "@hopscope/shared/dialects/convert";
import type { Dialect } from "@hopscope/shared/dialects/dialect";
import { DialectError, dialectErrorBody } from "@hopscope/shared/dialects/dialect-error";
import { JSON_CONTENT_TYPE } from "@hopscope/shared/ollama/ndjson";
import type { Logger } from "@hopscope/nodekit/logger";
import { OllamaError } from "./ollama-error";
import { goJson } from "@hopscope/shared/json/go-json";

export function encodedJson(body: unknown, status = 200): Response {
  return new Response(`${goJson(body)}\n`, { status, headers: { "content-type": "application/json" } });
}

/** The dialect's error response for an error a route threw, or null when it is not one Ollama would answer. */
export function dialectErrorResponse(d: Dialect, err: unknown): Response | null {
  if (err instanceof DialectError) {
    return new Response(goJson(dialectErrorBody(d, err.status, err.message)), {
      status: err.status,
      headers: { "content-type": JSON_CONTENT_TYPE },
    });
  }
  if (err instanceof OllamaError) return encodedJson(dialectErrorBody(d, err.status, err.message), err.status);
  return null;
}

/** Streams the native chunks as the dialect's SSE; the first chunk is awaited so an early failure keeps its status. */
export async function sseResponse(
  chunks: AsyncGenerator<Record<string, unknown>>,
  writer: DialectWriter,
  logger: Logger,
  extraHeaders: Record<string, string> = {},
): Promise<Response> {
  const first = await chunks.next();
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      if (first.done) controller.close();
      else controller.enqueue(encoder.encode(writer.chunk(first.value)));
    },
    async pull(controller) {
      try {
        const next = await chunks.next();
        if (next.done) controller.close();
        else controller.enqueue(encoder.encode(writer.chunk(next.value)));
      } catch (err) {
        // After the first event the status is sent; Ollama's writer gets the handler's error line and ends.
        logger.error({ err }, "dialect stream failed after it started");
        controller.close();
      }
    },
    async cancel() {
      await chunks.return(undefined);
    },
  });
  return new Response(body, { status: 200, headers: { "content-type": "text/event-stream", ...extraHeaders } });
}
