/**
 * The text a streamed model response shows at the moment on screen: during a replay, the chunks
 * recorded up to the replay cursor; live, the chunks received so far on the feed.
 */
import type { ExchangeSummary } from "@hopscope/shared/trace/schemas";
import { chunkTexts, streamedContent } from "./body";
import { chunksVisibleAt } from "./replay-timing";
import type { ReplayModel } from "./ReplayModel";
import type { TraceModel } from "./TraceModel";

export function streamTextNow(trace: TraceModel, replay: ReplayModel, x: ExchangeSummary): string | null {
  const cursor = replay.cursor.value;
  if (cursor !== null) {
    const f = trace.full.value.get(x.id);
    if (f?.status !== "ready" || f.value.chunks.length === 0) return null;
    const visible = chunksVisibleAt(f.value.chunks, x.timings.start, replay.start.value, cursor);
    return streamedContent(chunkTexts(f.value.responseBody, f.value.chunks).slice(0, visible));
  }
  const live = trace.liveChunks.value.get(x.id);
  return live ? streamedContent(live) : null;
}

/** True when the response is still arriving at the moment on screen. */
export function inProgressNow(replay: ReplayModel, x: ExchangeSummary): boolean {
  const cursor = replay.cursor.value;
  if (cursor === null) return x.timings.end === null;
  return x.timings.end === null || x.timings.end - replay.start.value > cursor;
}
