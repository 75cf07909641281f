/**
 * Replay of the open trace, narrated. `cursor` (ms since the trace began) decides what is shown: null means
 * "everything recorded so far" (live view); a number hides arrows and streamed chunks that had not happened
 * yet at that moment. Two modes: in "step" mode Space shows the next hop (and its caption) and plays its
 * streamed text at the recorded chunk times; in "auto" mode the replay advances by itself, staying at least
 * MIN_DWELL_MS ÷ speed on each hop and holding at the key hops (model requests, tool calls) until Space.
 */
import { computed, createModel, effect, signal, type Signal } from "@preact/signals";
import type { Chunk } from "@hopscope/shared/trace/schemas";
import {
  hopAppearsAt,
  hopDoneAt,
  keyHops,
  narratedDelay,
  nextEventIndex,
  nextSpeed,
  replayEvents,
  traceStart,
} from "./replay-timing";
import type { TraceModel } from "./TraceModel";

export type ReplayMode = "step" | "auto";

interface ReplayState {
  cursor: Signal<number | null>;
  playing: Signal<boolean>;
  speed: Signal<number>;
  mode: Signal<ReplayMode>;
  /** The key hop auto-advance is holding at (Space goes on), or null. */
  heldAt: Signal<number | null>;
}

export const ReplayModel = createModel((trace: TraceModel) => {
  const state: ReplayState = {
    cursor: signal<number | null>(null),
    playing: signal(false),
    speed: signal<number>(1),
    mode: signal<ReplayMode>("step"),
    heldAt: signal<number | null>(null),
  };
  const { cursor, playing, speed, mode, heldAt } = state;
  const timeline = replayTimeline(trace, cursor);
  const playback = replayPlayback(trace, state, timeline);
  const { stopTimer, tick, pause, play } = playback;
  const moves = hopMoves(trace, state, timeline, playback);

  function togglePlay(): void {
    if (playing.value) pause();
    else play();
  }

  /** Space: the next hop in step mode; play / pause (or go on from a key hop) in auto mode. */
  function advance(): void {
    if (mode.value === "step") moves.next();
    else togglePlay();
  }

  function setSpeed(value: number): void {
    speed.value = value;
    if (playing.value) {
      stopTimer();
      tick(mode.value === "step");
    }
  }

  function faster(): void {
    setSpeed(nextSpeed(speed.value, 1));
  }

  function slower(): void {
    setSpeed(nextSpeed(speed.value, -1));
  }

  function toggleMode(): void {
    pause();
    mode.value = mode.value === "step" ? "auto" : "step";
  }

  function exit(): void {
    pause();
    heldAt.value = null;
    cursor.value = null;
  }

  // A different trace ends any replay in progress.
  effect(() => {
    void trace.traceId.value;
    exit();
  });
  effect(() => () => stopTimer());

  return {
    ...state,
    ...timeline,
    begin: playback.begin,
    play,
    pause,
    togglePlay,
    ...moves,
    advance,
    setSpeed,
    faster,
    slower,
    toggleMode,
    exit,
  };
});
export type ReplayModel = InstanceType<typeof ReplayModel>;

type ReplayTimeline = ReturnType<typeof replayTimeline>;
type ReplayPlayback = ReturnType<typeof replayPlayback>;

/** When each hop and streamed chunk happened, and what the cursor shows of them. */
function replayTimeline(trace: TraceModel, cursor: Signal<number | null>) {
  const start = computed(() => traceStart(trace.list.value));
  const chunks = computed(() => {
    const m = new Map<number, readonly Chunk[]>();
    for (const [id, l] of trace.full.value)
      if (l.status === "ready" && l.value.chunks.length) m.set(id, l.value.chunks);
    return m;
  });
  const events = computed(() => replayEvents(trace.hops.value, trace.list.value, chunks.value));
  const keys = computed(() => keyHops(trace.hops.value, trace.exchanges.value));
  const visibleHops = computed(() => {
    const c = cursor.value;
    if (c === null) return trace.hops.value;
    return trace.hops.value.filter((h) => hopAppearsAt(h, trace.exchanges.value.get(h.exchangeId), start.value) <= c);
  });
  const active = computed(() => cursor.value !== null);
  return { start, events, keys, visibleHops, active };
}

/** The timer that plays the recorded moments one after another, and how to start and stop it. */
function replayPlayback(trace: TraceModel, state: ReplayState, timeline: ReplayTimeline) {
  const { cursor, playing, speed, heldAt } = state;
  const { start, events, keys } = timeline;
  let timer: ReturnType<typeof setTimeout> | null = null;
  /** Real ms spent on the current hop so far (auto-advance's minimum dwell counts it). */
  let sinceHop = 0;
  /** The key hop already held at (or played on from): auto-advance does not hold there again. */
  let passed: number | null = null;

  function stopTimer(): void {
    if (timer) clearTimeout(timer);
    timer = null;
  }

  /**
   * Plays the next moment after its delay. `withinHop`: stop before the next hop (step mode: a key press
   * shows it). In auto mode a key hop holds once its own moments have played.
   */
  function tick(withinHop: boolean): void {
    const c = cursor.value ?? -1;
    const evs = events.value;
    const next = evs[nextEventIndex(evs, c)];
    if (!next) {
      playing.value = false;
      return;
    }
    const current = trace.selectedHop.value;
    if (next.type === "hop" && (withinHop || (current !== null && keys.value.has(current) && passed !== current))) {
      playing.value = false;
      if (!withinHop && current !== null) {
        heldAt.value = current;
        passed = current;
        // Held long enough: going on from a key hop shows the next one at once.
        sinceHop = Number.POSITIVE_INFINITY;
      }
      return;
    }
    const wait = withinHop
      ? narratedDelay(next, next.t - Math.max(c, 0), speed.value, 0, 0)
      : narratedDelay(next, next.t - Math.max(c, 0), speed.value, sinceHop);
    timer = setTimeout(() => {
      timer = null;
      if (!playing.value) return;
      cursor.value = next.t;
      sinceHop += wait;
      if (next.type === "hop") {
        trace.selectedHop.value = next.hop;
        sinceHop = 0;
        heldAt.value = null;
      }
      tick(withinHop);
    }, wait);
  }

  /** Enters replay at the very beginning (nothing shown yet but the first hop). */
  function begin(): void {
    stopTimer();
    playing.value = false;
    heldAt.value = null;
    passed = null;
    sinceHop = 0;
    const first = trace.hops.value[0];
    cursor.value = first ? hopAppearsAt(first, trace.exchanges.value.get(first.exchangeId), start.value) : 0;
    trace.selectedHop.value = first?.number ?? null;
    // Chunks of streamed responses are needed to play them at their recorded times.
    void trace.loadAll({ views: false, only: (x) => x.chunkCount > 0 });
  }

  function atEnd(): boolean {
    return nextEventIndex(events.value, cursor.value ?? -1) >= events.value.length;
  }

  /** Auto-advance from here (from the start when not replaying or at the end). */
  function play(): void {
    if (cursor.value === null || atEnd()) begin();
    // Playing on from a key hop means the speaker is done with it.
    passed = trace.selectedHop.value;
    heldAt.value = null;
    playing.value = true;
    stopTimer();
    tick(false);
  }

  function pause(): void {
    playing.value = false;
    stopTimer();
  }

  return { stopTimer, tick, begin, play, pause };
}

/** Moving between hops: the next one as narrated (step mode), or straight to one. */
function hopMoves(trace: TraceModel, state: ReplayState, timeline: ReplayTimeline, playback: ReplayPlayback) {
  const { cursor, playing, heldAt } = state;
  const { start, events } = timeline;

  /** Step mode's key press: the next hop appears (at its recorded moment), then its streamed text plays. */
  function next(): void {
    if (cursor.value === null) {
      // Not replaying yet: narrate from the hop on screen (or from the start when none is selected).
      const at = trace.hops.value.find((h) => h.number === trace.selectedHop.value);
      playback.begin();
      if (!at) return;
      trace.selectedHop.value = at.number;
      cursor.value = hopDoneAt(at, trace.exchanges.value.get(at.exchangeId), start.value);
    }
    playback.stopTimer();
    const evs = events.value;
    const i = evs.findIndex((e, j) => j >= nextEventIndex(evs, cursor.value ?? -1) && e.type === "hop");
    const hopEvent = evs[i];
    if (!hopEvent || hopEvent.type !== "hop") {
      // No hop left: finish the current one's moments at once.
      const lastT = evs[evs.length - 1]?.t;
      if (lastT !== undefined) cursor.value = lastT;
      playing.value = false;
      return;
    }
    cursor.value = hopEvent.t;
    trace.selectedHop.value = hopEvent.hop;
    heldAt.value = null;
    playing.value = true;
    playback.tick(true);
  }

  /** Moves to a hop: selects it and, during a replay, reveals the trace up to the moment it completed. */
  function goTo(hopNumber: number): void {
    const hop = trace.hops.value.find((h) => h.number === hopNumber);
    if (!hop) return;
    playback.pause();
    heldAt.value = null;
    trace.selectedHop.value = hop.number;
    if (cursor.value !== null) cursor.value = hopDoneAt(hop, trace.exchanges.value.get(hop.exchangeId), start.value);
  }

  function step(delta: 1 | -1): void {
    const hops = trace.hops.value;
    if (hops.length === 0) return;
    const cur = trace.selectedHop.value;
    const idx = cur === null ? (delta === 1 ? -1 : hops.length) : hops.findIndex((h) => h.number === cur);
    const to = hops[Math.min(hops.length - 1, Math.max(0, idx + delta))];
    if (to) goTo(to.number);
  }

  function first(): void {
    const h = trace.hops.value[0];
    if (h) goTo(h.number);
  }

  function last(): void {
    const h = trace.hops.value[trace.hops.value.length - 1];
    if (h) goTo(h.number);
  }

  return { next, goTo, step, first, last };
}
