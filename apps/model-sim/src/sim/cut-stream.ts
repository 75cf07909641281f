/**
 * The `cut` lesson: an answer in words stalls after a few tokens, and then the stream simply ends, with
 * no `done: true` chunk — what a learner sees when a model server crashes, is restarted, or a proxy
 * drops a long response mid-answer (the stall is what the room sees first: text stops arriving). Tool calls go through whole, so the host's loop reaches the answer that
 * gets cut. Only a stream can be cut: with `stream: false` the answer comes whole.
 */
import type { Lesson } from "@hopscope/shared/ollama/lessons";
import { sleep } from "./sleep";

/** Chunks with text that go out before the stream ends. */
export const CUT_AFTER_TEXT_CHUNKS = 4;
/** How long the answer stalls before the stream ends. */
export const STALL_MS = 4000;

type Chunks = AsyncGenerator<Record<string, unknown>>;

/** The chunks as they are, or — for the `cut` lesson on a stream — an answer in words ended early. */
export function cutForLesson(lesson: Lesson | null, stream: boolean, chunks: Chunks, signal?: AbortSignal): Chunks {
  return lesson === "cut" && stream ? cutWords(chunks, signal) : chunks;
}

async function* cutWords(chunks: Chunks, signal?: AbortSignal): Chunks {
  let texts = 0;
  for await (const chunk of chunks) {
    if (chunk.done === true) {
      yield chunk;
      return;
    }
    const message = chunk.message as { content?: string; tool_calls?: unknown[] } | undefined;
    const words = typeof message?.content === "string" && message.content !== "" && !message.tool_calls?.length;
    yield chunk;
    if (words && ++texts >= CUT_AFTER_TEXT_CHUNKS) {
      try {
        await sleep(STALL_MS, signal);
      } catch (err) {
        if (signal?.aborted) return; // the client left during the stall: nothing more to send
        throw err;
      }
      // Leaving the loop closes the generator: the runner stops, as when its process dies.
      return;
    }
  }
}
