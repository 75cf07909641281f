/**
 * The stream state of a model exchange at the moment on screen: live, from the chunks received on the
 * feed and the ticking clock; in a replay, from the recorded chunks up to the replay cursor.
 */
import type { ExchangeSummary } from "@hopscope/shared/trace/schemas";
import { chunkTexts } from "./body";
import { chunksVisibleAt } from "./replay-timing";
import type { ReplayModel } from "./ReplayModel";
import { streamState, tokenChunks, type StreamState } from "./stream-state";
import { inProgressNow, streamTextNow } from "./stream-text";
import type { TraceModel } from "./TraceModel";

export function streamStateNow(
  trace: TraceModel,
  replay: ReplayModel,
  x: ExchangeSummary,
  now: number,
): StreamState | undefined {
  if (x.classification.kind !== "model.chat" && x.tap !== "model") return undefined;
  const cursor = replay.cursor.value;
  let texts: readonly string[] = trace.liveChunks.value.get(x.id) ?? [];
  let at = now;
  if (cursor !== null) {
    at = replay.start.value + cursor;
    const f = trace.full.value.get(x.id);
    texts =
      f?.status === "ready"
        ? chunkTexts(f.value.responseBody, f.value.chunks).slice(
            0,
            chunksVisibleAt(f.value.chunks, x.timings.start, replay.start.value, cursor),
          )
        : [];
  }
  // At a replay moment before the first byte, the exchange is shown as it was then.
  const beforeFirstByte = cursor !== null && x.timings.firstByte !== null && x.timings.firstByte > at;
  const shown = beforeFirstByte ? { ...x, timings: { ...x.timings, firstByte: null } } : x;
  // A response that was not streamed arrives whole: once its first byte is on screen, it is done.
  const streamed = x.classification.kind === "model.chat" && x.classification.stream;
  const ended =
    !inProgressNow(replay, x) || (cursor !== null && !streamed && !beforeFirstByte && x.timings.firstByte !== null);
  return streamState({ x: shown, text: streamTextNow(trace, replay, x), tokens: tokenChunks(texts), ended, now: at });
}
