/**
 * Replay timing: a trace played back as a timeline of moments (an arrow appears, a streamed chunk
 * arrives, an exchange completes), at the recorded pace or faster. Everything the sequence view
 * shows during a replay is derived from one number, the cursor: milliseconds since the trace began.
 */
import type { Chunk, ExchangeSummary } from "@hopscope/shared/trace/schemas";
import type { Hop } from "./hops";

export type ReplayEvent =
  | { t: number; type: "hop"; hop: number }
  | { t: number; type: "chunk"; exchangeId: number; index: number }
  | { t: number; type: "end"; exchangeId: number };

/** Long silences (a model loading for 30 s) are shortened to this, so a replay never seems stuck. */
export const MAX_GAP_MS = 2_500;

export function traceStart(exchanges: readonly ExchangeSummary[]): number {
  return exchanges.reduce((min, x) => Math.min(min, x.timings.start), Number.POSITIVE_INFINITY);
}

/**
 * When a hop appears during replay (ms since trace start). A streamed response appears at its first
 * byte, so its tokens can be seen arriving; every other arrow appears when it happened.
 */
export function hopAppearsAt(hop: Hop, exchange: ExchangeSummary | undefined, start: number): number {
  const first = hop.arrows[0];
  if (!first) return hop.at - start;
  if (first.direction === "response" && exchange && exchange.chunkCount > 0 && exchange.timings.firstByte !== null) {
    return exchange.timings.firstByte - start;
  }
  return first.at - start;
}

/** When a hop has fully happened: its last arrow has completed. Stepping to a hop moves the cursor here. */
export function hopDoneAt(hop: Hop, exchange: ExchangeSummary | undefined, start: number): number {
  const last = hop.arrows[hop.arrows.length - 1];
  const at = last ? last.at : hop.at;
  if (last?.direction === "response" && exchange?.timings.end != null) return exchange.timings.end - start;
  return at - start;
}

/** All moments of a trace, in time order. `chunks` holds the recorded chunks of streamed exchanges. */
export function replayEvents(
  hops: readonly Hop[],
  exchanges: readonly ExchangeSummary[],
  chunks: ReadonlyMap<number, readonly Chunk[]>,
): ReplayEvent[] {
  const start = traceStart(exchanges);
  const byId = new Map(exchanges.map((x) => [x.id, x]));
  const events: ReplayEvent[] = [];
  for (const hop of hops)
    events.push({ t: hopAppearsAt(hop, byId.get(hop.exchangeId), start), type: "hop", hop: hop.number });
  for (const x of exchanges) {
    for (const c of chunks.get(x.id) ?? [])
      events.push({ t: x.timings.start - start + c.t, type: "chunk", exchangeId: x.id, index: c.index });
    if (x.timings.end !== null) events.push({ t: x.timings.end - start, type: "end", exchangeId: x.id });
  }
  const order = { hop: 0, chunk: 1, end: 2 } as const;
  return events.sort((a, b) => a.t - b.t || order[a.type] - order[b.type]);
}

/** How long to wait before the next moment, at a playback speed (1 = recorded pace). */
export function delayBetween(from: number, to: number, speed: number): number {
  return Math.min(Math.max(0, to - from) / speed, MAX_GAP_MS);
}

/** Index of the first event after the cursor, or events.length when the replay is over. */
export function nextEventIndex(events: readonly ReplayEvent[], cursor: number): number {
  let lo = 0;
  let hi = events.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((events[mid] as ReplayEvent).t <= cursor) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** How many chunks of an exchange have arrived by the cursor. */
export function chunksVisibleAt(
  chunks: readonly Chunk[],
  exchangeStart: number,
  start: number,
  cursor: number,
): number {
  let n = 0;
  for (const c of chunks) if (exchangeStart - start + c.t <= cursor) n++;
  return n;
}

/** Replay speeds a speaker can narrate at: a quarter of the recorded pace up to four times it. */
export const SPEEDS = [0.25, 0.5, 1, 2, 4] as const;

/** At 1×, auto-advance stays at least this long on each hop (÷ speed), so a caption can be read aloud. */
export const MIN_DWELL_MS = 3_000;

/**
 * The hops a narrated replay stops at in auto-advance (the article's 3, 4 and 6): every model request —
 * the prompt it became — and every model answer that asks for a tool.
 */
export function keyHops(hops: readonly Hop[], exchanges: ReadonlyMap<number, ExchangeSummary>): Set<number> {
  const keys = new Set<number>();
  for (const h of hops) {
    const c = exchanges.get(h.exchangeId)?.classification;
    if (h.kind === "model-request") keys.add(h.number);
    if (h.kind === "model-response" && c?.kind === "model.chat" && c.toolCalls.length > 0) keys.add(h.number);
  }
  return keys;
}

/**
 * How long auto-advance waits before the next moment. Within a hop (streamed chunks, the end) the recorded
 * gap ÷ speed; before a new hop, also at least the minimum dwell ÷ speed since the current hop appeared.
 */
export function narratedDelay(
  next: ReplayEvent,
  gapMs: number,
  speed: number,
  sinceHopMs: number,
  dwellMs = MIN_DWELL_MS,
): number {
  const recorded = delayBetween(0, gapMs, speed);
  if (next.type !== "hop") return recorded;
  return Math.max(recorded, dwellMs / speed - sinceHopMs);
}

/** The next speed up (+1) or down (−1), staying within SPEEDS. */
export function nextSpeed(speed: number, delta: 1 | -1): number {
  const i = SPEEDS.findIndex((s) => s >= speed);
  const at = i < 0 ? SPEEDS.length - 1 : i;
  return SPEEDS[Math.min(SPEEDS.length - 1, Math.max(0, at + delta))] as number;
}
