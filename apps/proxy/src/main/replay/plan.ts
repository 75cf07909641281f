/**
 * What a replay plays: a saved trace's exchanges re-identified as a new trace (fresh trace id and exchange
 * ids, seq in trace order, timings moved so the trace starts now) and the timeline of its live-feed events
 * at their recorded offsets from the first request. Pure: the player only has to wait and emit.
 *
 * Timings are moved, never scaled: at any speed the stored replay shows the recorded durations (a talk
 * may play a slow model at 4× and still show "the model took 2.3 s"); speed only changes when the frames
 * are sent.
 */
import type { TraceBundle } from "@hopscope/shared/trace/bundle";
import type { Exchange, NotesChange, Timings, TraceSummary } from "@hopscope/shared/trace/schemas";
import { minOf } from "@hopscope/shared/json/extent";

export type ReplayEvent =
  | { at: number; kind: "started"; exchange: number }
  | { at: number; kind: "chunk"; exchange: number; chunk: number }
  | { at: number; kind: "completed"; exchange: number };

export interface ReplayPlan {
  traceId: string;
  name: string;
  groupedBy: TraceSummary["groupedBy"];
  /** Epoch ms of the replayed trace's first request (the moment the replay began). */
  startedAt: number;
  /** The replayed exchanges in trace order; `ReplayEvent.exchange` indexes this array. */
  exchanges: Exchange[];
  /** In play order; `at` is ms after `startedAt` at the recorded pace. */
  events: ReplayEvent[];
  /** First request to last response, at the recorded pace. */
  durationMs: number;
  /**
   * The notes file's changes of the trace, moved like its exchanges and re-pointed at the replayed ones
   * (ids to be given by the notes table). The file on disk does not change: the lane shows what it did then.
   */
  notes: Omit<NotesChange, "id">[];
}

export interface PlanInit {
  traceId: string;
  /** One new exchange id per exchange of the bundle (in `bundle.exchanges` order). */
  ids: number[];
  /** Epoch ms the replay starts at. */
  now: number;
}

export const REPLAY_SUFFIX = " (replay)";

export function planReplay(bundle: TraceBundle, init: PlanInit): ReplayPlan {
  if (init.ids.length !== bundle.exchanges.length) {
    throw new Error(`hopscope bug: ${init.ids.length} ids for ${bundle.exchanges.length} exchanges`);
  }
  const order = new Map(bundle.trace.exchanges.map((s, i) => [s.id, i + 1]));
  const t0 = minOf(bundle.exchanges.map((e) => e.timings.start));
  const shift = init.now - t0;
  const exchanges = bundle.exchanges
    .map((ex, i): Exchange => ({
      ...ex,
      id: init.ids[i] as number,
      traceId: init.traceId,
      seq: order.get(ex.id) ?? ex.seq,
      timings: shifted(ex.timings, shift),
    }))
    .sort((a, b) => a.seq - b.seq || a.timings.start - b.timings.start);

  const events: ReplayEvent[] = [];
  exchanges.forEach((ex, i) => {
    // Within an exchange, events never go back in time (a chunk's recorded offset and the end are taken
    // from two clocks and may disagree by a fraction of a millisecond).
    let at = ex.timings.start - init.now;
    events.push({ at, kind: "started", exchange: i });
    ex.chunks.forEach((c, k) => {
      at = Math.max(at, ex.timings.start + c.t - init.now);
      events.push({ at, kind: "chunk", exchange: i, chunk: k });
    });
    const t = ex.timings;
    at = Math.max(at, (t.end ?? t.firstByte ?? t.requestEnd ?? t.start) - init.now);
    events.push({ at, kind: "completed", exchange: i });
  });
  // Stable: events due at the same moment keep trace order, and each exchange's own order.
  events.sort((a, b) => a.at - b.at);

  const newId = new Map(bundle.exchanges.map((ex, i) => [ex.id, init.ids[i] as number]));
  const notes = (bundle.notes ?? []).map(({ id: _id, ...c }) => ({
    ...c,
    at: c.at + shift,
    traceId: init.traceId,
    cause:
      c.cause.kind === "tool-call"
        ? { ...c.cause, traceId: init.traceId, exchangeId: newId.get(c.cause.exchangeId) ?? -1 }
        : c.cause,
  }));

  return {
    traceId: init.traceId,
    notes,
    name: `${bundle.trace.name}${REPLAY_SUFFIX}`,
    groupedBy: bundle.trace.groupedBy,
    startedAt: init.now,
    exchanges,
    events,
    durationMs: events.at(-1)?.at ?? 0,
  };
}

function shifted(t: Timings, by: number): Timings {
  const move = (v: number | null) => (v === null ? null : v + by);
  return { start: t.start + by, requestEnd: move(t.requestEnd), firstByte: move(t.firstByte), end: move(t.end) };
}
