/**
 * Replay of the open trace. `cursor` (ms since the trace began) decides what is shown: null means
 * "everything recorded so far" (live view); a number hides arrows and streamed chunks that had not
 * happened yet at that moment. Playing walks the recorded moments with their recorded gaps divided by
 * `speed` (long silences shortened, see MAX_GAP_MS), so streamed tokens appear at their recorded times.
 */
import { computed, createModel, effect, signal } from "@preact/signals";
import type { Chunk } from "@hopscope/shared/trace/schemas";
import { delayBetween, hopAppearsAt, hopDoneAt, nextEventIndex, replayEvents, traceStart } from "./replay-timing";
import type { TraceModel } from "./TraceModel";

export const SPEEDS = [1, 2, 4, 10] as const;

export const ReplayModel = createModel((trace: TraceModel) => {
  const cursor = signal<number | null>(null);
  const playing = signal(false);
  const speed = signal<number>(1);
  let timer: ReturnType<typeof setTimeout> | null = null;

  const start = computed(() => traceStart(trace.list.value));
  const chunks = computed(() => {
    const m = new Map<number, readonly Chunk[]>();
    for (const [id, l] of trace.full.value) if (l.status === "ready" && l.value.chunks.length) m.set(id, l.value.chunks);
    return m;
  });
  const events = computed(() => replayEvents(trace.hops.value, trace.list.value, chunks.value));
  const visibleHops = computed(() => {
    const c = cursor.value;
    if (c === null) return trace.hops.value;
    return trace.hops.value.filter((h) => hopAppearsAt(h, trace.exchanges.value.get(h.exchangeId), start.value) <= c);
  });
  const active = computed(() => cursor.value !== null);

  function stopTimer(): void {
    if (timer) clearTimeout(timer);
    timer = null;
  }

  function tick(): void {
    const c = cursor.value ?? -1;
    const evs = events.value;
    const i = nextEventIndex(evs, c);
    const next = evs[i];
    if (!next) {
      playing.value = false;
      return;
    }
    timer = setTimeout(() => {
      timer = null;
      if (!playing.value) return;
      cursor.value = next.t;
      if (next.type === "hop") trace.selectedHop.value = next.hop;
      tick();
    }, delayBetween(Math.max(c, 0), next.t, speed.value));
  }

  /** Enters replay at the very beginning (nothing shown yet but the first hop). */
  function begin(): void {
    stopTimer();
    playing.value = false;
    const first = trace.hops.value[0];
    cursor.value = first ? hopAppearsAt(first, trace.exchanges.value.get(first.exchangeId), start.value) : 0;
    trace.selectedHop.value = first?.number ?? null;
    // Chunks of streamed responses are needed to play them at their recorded times.
    void trace.loadAll({ views: false, only: (x) => x.chunkCount > 0 });
  }

  function play(): void {
    if (cursor.value === null) begin();
    const evs = events.value;
    if (nextEventIndex(evs, cursor.value ?? -1) >= evs.length) begin();
    playing.value = true;
    stopTimer();
    tick();
  }

  function pause(): void {
    playing.value = false;
    stopTimer();
  }

  function togglePlay(): void {
    if (playing.value) pause();
    else play();
  }

  /** Moves to a hop: selects it and, during a replay, reveals the trace up to the moment it completed. */
  function goTo(hopNumber: number): void {
    const hop = trace.hops.value.find((h) => h.number === hopNumber);
    if (!hop) return;
    pause();
    trace.selectedHop.value = hop.number;
    if (cursor.value !== null) cursor.value = hopDoneAt(hop, trace.exchanges.value.get(hop.exchangeId), start.value);
  }

  function step(delta: 1 | -1): void {
    const hops = trace.hops.value;
    if (hops.length === 0) return;
    const cur = trace.selectedHop.value;
    const idx = cur === null ? (delta === 1 ? -1 : hops.length) : hops.findIndex((h) => h.number === cur);
    const next = hops[Math.min(hops.length - 1, Math.max(0, idx + delta))];
    if (next) goTo(next.number);
  }

  function first(): void {
    const h = trace.hops.value[0];
    if (h) goTo(h.number);
  }

  function last(): void {
    const h = trace.hops.value[trace.hops.value.length - 1];
    if (h) goTo(h.number);
  }

  function faster(): void {
    const i = SPEEDS.indexOf(speed.value as (typeof SPEEDS)[number]);
    speed.value = SPEEDS[(i + 1) % SPEEDS.length] as number;
    if (playing.value) {
      stopTimer();
      tick();
    }
  }

  function exit(): void {
    pause();
    cursor.value = null;
  }

  // A different trace ends any replay in progress.
  effect(() => {
    void trace.traceId.value;
    exit();
  });
  effect(() => () => stopTimer());

  return { cursor, playing, speed, events, visibleHops, active, start, begin, play, pause, togglePlay, goTo, step, first, last, faster, exit };
});
export type ReplayModel = InstanceType<typeof ReplayModel>;
