/**
 * HTTP framing of Ollama's answers: gin `c.JSON` bodies (Go-escaped JSON, no trailing newline) and
 * NDJSON streams (one line per chunk, flushed as it is produced; an error after the first line becomes
 * an `{"error": …}` line, as `streamResponse` writes it).
 */
import { JSON_CONTENT_TYPE, NDJSON_CONTENT_TYPE, ndjsonLine } from "@hopscope/shared/ollama/ndjson";
import type { Logger } from "@hopscope/nodekit/logger";
import { goJson } from "@hopscope/shared/json/go-json";

export function goJsonResponse(body: unknown, status = 200): Response {
  return new Response(goJson(body), { status, headers: { "content-type": JSON_CONTENT_TYPE } });
}

/**
 * Stream the chunks as NDJSON. The first chunk is awaited before the response starts, so a failure
 * that early still gets a proper status code instead of a 200 with an error line.
 */
export async function ndjsonResponse(
  chunks: AsyncGenerator<Record<string, unknown>>,
  logger: Logger,
): Promise<Response> {
  const first = await chunks.next();
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      if (!first.done) controller.enqueue(encoder.encode(ndjsonLine(first.value)));
      else controller.close();
    },
    async pull(controller) {
      try {
        const next = await chunks.next();
        if (next.done) controller.close();
        else controller.enqueue(encoder.encode(ndjsonLine(next.value)));
      } catch (err) {
        logger.error({ err }, "stream failed after it started");
        controller.enqueue(encoder.encode(ndjsonLine({ error: err instanceof Error ? err.message : String(err) })));
        controller.close();
      }
    },
    async cancel() {
      // The client went away: stop generating, as Ollama cancels the runner's context.
      await chunks.return(undefined);
    },
  });
  return new Response(body, { status: 200, headers: { "content-type": NDJSON_CONTENT_TYPE } });
}

/**
 * What `stream: false` returns: the same chunks, aggregated as ChatHandler does — content
 * concatenated, tool_calls appended, everything else from the last chunk.
 */
export async function aggregateChat(chunks: AsyncGenerator<Record<string, unknown>>): Promise<Record<string, unknown>> {
  let last: Record<string, unknown> | null = null;
  let content = "";
  const toolCalls: unknown[] = [];
  for await (const chunk of chunks) {
    const message = chunk.message as { content: string; tool_calls?: unknown[] };
    content += message.content;
    toolCalls.push(...(message.tool_calls ?? []));
    last = chunk;
  }
  if (!last) throw new Error("the simulated runner produced no chunks");
  const message: Record<string, unknown> = { ...(last.message as object), content };
  delete message.tool_calls;
  if (toolCalls.length > 0) message.tool_calls = toolCalls;
  return { ...last, message };
}

/** `/api/generate` with `stream: false`: responses concatenated, the rest from the last chunk. */
export async function aggregateGenerate(
  chunks: AsyncGenerator<Record<string, unknown>>,
): Promise<Record<string, unknown>> {
  let last: Record<string, unknown> | null = null;
  let response = "";
  for await (const chunk of chunks) {
    response += chunk.response as string;
    last = chunk;
  }
  if (!last) throw new Error("the simulated runner produced no chunks");
  return { ...last, response };
}
