/**
 * Follow live, on by default (like a network panel's auto-scroll): when a trace starts — from any
 * client, the ask box, curl, the CLI, another agent through the taps — it is opened, and each hop is
 * selected as it arrives (each for at least a moment), so the detail pane shows what is happening now (the model's text as it
 * streams). Two questions at once: the view follows the newest and says how many are running.
 * Navigating by hand (another hop, another trace, a replay) pauses following; `resume()` (the `l` key,
 * the button) picks it up again at the newest live trace. A page opened while a trace runs (a question,
 * a replay) opens it at once, as if it had been open from the start. `now` ticks while something is in flight,
 * so captions can count the seconds a model takes to answer.
 */
import { computed, createModel, effect, signal, type ReadonlySignal, type Signal } from "@preact/signals";
import { ReplaysPlayingSchema } from "@hopscope/shared/trace/replay";
import type { ExchangeSummary, ServerFrame } from "@hopscope/shared/trace/schemas";
import { getJson } from "../api/http";
import { isReadOnly } from "../api/source";
import type { Hop } from "./hops";
import type { TraceModel } from "./TraceModel";
import type { TracesModel } from "./TracesModel";
import type { UiModel } from "./UiModel";

const TICK_MS = 200;
/** Least time a hop stays selected while following, so a quick hop is seen before the next. */
const DWELL_MS = 900;
const MAX_BEHIND = 4;

/** Where following last put the view; anything else that moves it is the user. */
interface Placed {
  at: { traceId: string | null; hop: number | null } | null;
}

/** The selected hop's index among the main line's, or the last main hop before it when it is a side request's. */
function placeOf(hops: readonly Hop[], selected: number | null): number {
  const i = hops.findIndex((h) => h.number === selected);
  if (i >= 0 || selected === null) return i;
  let before = -1;
  hops.forEach((h, j) => {
    if (h.number < selected) before = j;
  });
  return before;
}

export const FollowLiveModel = createModel((trace: TraceModel, traces: TracesModel, ui: UiModel) => {
  const on = signal(true);
  const now = signal(Date.now());
  /** Traces seen starting (or listed) already: only a trace seen for the first time is "new". */
  const known = new Set<string>();
  const placed: Placed = { at: null };

  /** Traces with exchanges in flight, newest first. */
  const running = computed(() => {
    const ids = [...traces.inFlight.value.keys()];
    const created = (id: string) => traces.traces.value.find((t) => t.id === id)?.createdAt ?? Number.MAX_SAFE_INTEGER;
    return ids.sort((a, b) => created(b) - created(a));
  });

  function place(traceId: string | null, hop: number | null): void {
    placed.at = { traceId, hop };
  }

  function openTrace(id: string, live: boolean): void {
    place(id, null);
    ui.tab.value = null;
    void trace.open(id, null, live);
  }

  /**
   * A page opened (or reconnected) while a trace is running follows it as a page open from the start
   * does: the newest trace with an exchange in flight, else the newest replay playing (between two of its
   * exchanges nothing is in flight). Only when following and nothing is open: a link to a trace wins.
   */
  async function joinRunning(inFlight: readonly ExchangeSummary[]): Promise<void> {
    if (!on.peek() || trace.traceId.peek() !== null || isReadOnly()) return;
    const newest = inFlight.reduce<ExchangeSummary | null>(
      (a, x) => (!a || x.timings.start > a.timings.start ? x : a),
      null,
    );
    const id = newest?.traceId ?? (await newestReplay());
    // Asked while the answer was on its way: the learner (or a new trace) may have moved the view meanwhile.
    if (id && on.peek() && trace.traceId.peek() === null) openTrace(id, true);
  }

  /** Called for each frame before the trace model applies it, so a new trace is open when its first exchange lands. */
  function beforeFrame(frame: ServerFrame): void {
    if (frame.type === "snapshot") {
      for (const t of frame.traces) known.add(t.id);
      for (const x of frame.inFlight) known.add(x.traceId);
      void joinRunning(frame.inFlight);
      return;
    }
    if (frame.type !== "exchange.started") return;
    const id = frame.exchange.traceId;
    if (known.has(id)) return;
    known.add(id);
    if (on.value && id !== trace.traceId.value) openTrace(id, true);
  }

  const select = walkHops(trace, ui, on, place);
  const navigation = pauseOnNavigation(trace, on, placed);
  tickWhileInFlight(trace, now);

  /** Follow again: the newest running trace (or stay on this one), at its newest hop. */
  function resume(): void {
    navigation.clear();
    const newest = running.value[0];
    if (newest && newest !== trace.traceId.value) openTrace(newest, !traces.traces.value.some((t) => t.id === newest));
    else {
      // Back to now at once: the newest hop, not a walk through the ones missed.
      const last = trace.mainHops.value.at(-1);
      if (last) select(last.number);
      else place(trace.traceId.value, trace.selectedHop.value);
    }
    on.value = true;
    // Nothing in flight, but a replay may be playing (between two of its exchanges): follow that one.
    if (!newest && !isReadOnly()) {
      const from = trace.traceId.value;
      void newestReplay().then((id) => {
        if (id && id !== from && on.peek() && trace.traceId.peek() === from) openTrace(id, false);
      });
    }
  }

  return {
    on,
    pausedBecause: navigation.pausedBecause,
    now,
    running,
    beforeFrame,
    resume,
    pause: navigation.pause,
  };
});
export type FollowLiveModel = InstanceType<typeof FollowLiveModel>;

/** The newest replay playing; undefined when none is, or when the recorder could not say (logged). */
async function newestReplay(): Promise<string | undefined> {
  try {
    return (await getJson("/api/replay", ReplaysPlayingSchema)).replays.at(-1)?.traceId;
  } catch (e) {
    console.error("[hopscope] could not ask which replays are playing", e);
    return undefined;
  }
}

/**
 * Selects each hop as it arrives, one after another, while following is on; returns how to select one
 * (resuming jumps to the newest). A hop stays selected at least DWELL_MS, so a quick one (an MCP call
 * takes milliseconds) is seen with its caption before the next; a view more than MAX_BEHIND hops behind
 * (a burst, a fast model) jumps to the newest; a later hop where the model's answer is streaming is
 * shown at once, before the dwell ends (a short answer is over within one).
 */
function walkHops(
  trace: TraceModel,
  ui: UiModel,
  on: ReadonlySignal<boolean>,
  place: (traceId: string | null, hop: number | null) => void,
): (n: number) => void {
  let lastMoveAt = 0;
  let timer: ReturnType<typeof setTimeout> | null = null;
  function select(n: number): void {
    lastMoveAt = Date.now();
    place(trace.traceId.peek(), n);
    ui.tab.value = null; // the hop's natural tab: the streaming text for a model's answer
    trace.selectedHop.value = n;
  }
  // A hop that ends while it is selected changes its caption (done, or cut before its final chunk):
  // that moment is worth its own dwell, or the next hop would replace it before anyone read it. Called
  // on every change and first thing in step(), since one batch of frames can end a hop and bring the next.
  let watched: { hop: number | null; ended: boolean } = { hop: null, ended: false };
  function noteEnd(): void {
    const n = trace.selectedHop.peek();
    const hop = trace.hops.peek().find((h) => h.number === n);
    const ended = hop ? (trace.exchanges.peek().get(hop.exchangeId)?.timings.end ?? null) !== null : false;
    if (watched.hop === n && !watched.ended && ended) lastMoveAt = Date.now();
    watched = { hop: n, ended };
  }
  function step(): void {
    if (timer) clearTimeout(timer);
    timer = null;
    if (!on.peek()) return;
    noteEnd();
    // The run's main line: a side request (a title, a memory subagent) is marked in the timeline, not followed.
    const hops = trace.mainHops.peek();
    const last = hops.at(-1);
    if (!last) return;
    const i = placeOf(hops, trace.selectedHop.peek());
    if (i === hops.length - 1) return;
    const streaming = i >= 0 ? streamingAfter(trace, i) : undefined;
    if (streaming !== undefined) return select(streaming);
    if (hops.length - 1 - i > MAX_BEHIND) return select(last.number);
    const wait = lastMoveAt + DWELL_MS - Date.now();
    if (wait > 0 && i >= 0) {
      timer = setTimeout(step, wait);
      return;
    }
    select((hops[i + 1] ?? last).number);
    if (i + 1 < hops.length - 1) timer = setTimeout(step, DWELL_MS);
  }
  effect(() => {
    if (!on.value) return;
    void trace.mainHops.value;
    step();
  });
  effect(() => {
    void trace.selectedHop.value;
    void trace.exchanges.value;
    noteEnd();
  });
  return select;
}

/** A later hop where the model is writing its answer right now: the dwells give way to it, or the stream ends unseen. */
function streamingAfter(trace: TraceModel, i: number): number | undefined {
  const xs = trace.exchanges.peek();
  return trace.mainHops
    .peek()
    .slice(i + 1)
    .find((h) => h.kind === "model-response" && xs.get(h.exchangeId)?.state === "streaming")?.number;
}

/**
 * Anything but following that moves the view is the user navigating: pause, and say why (`pausedBecause`,
 * for the bar: "you picked hop 3"). While paused by navigating, each further move renames the reason, so
 * the bar names the hop picked now, not the first.
 */
function pauseOnNavigation(trace: TraceModel, on: Signal<boolean>, placed: Placed) {
  const pausedBecause = signal<string | null>(null);
  let pausedByNavigating = false;
  effect(() => {
    const at = { traceId: trace.traceId.value, hop: trace.selectedHop.value };
    const expected = placed.at;
    // A trace closed under us (deleted, pruned) is not the learner navigating.
    // (TraceModel.open sets a trace and its hop in one batch: opening one is not also "picking hop 1".)
    const moved = expected && at.traceId !== null && (at.traceId !== expected.traceId || at.hop !== expected.hop);
    if (moved && (on.peek() || pausedByNavigating)) {
      on.value = false;
      pausedByNavigating = true;
      pausedBecause.value =
        at.traceId !== expected?.traceId
          ? "you opened another trace"
          : at.hop === null
            ? "you closed the hop"
            : `you picked hop ${at.hop}`;
    }
    placed.at = at;
  });
  return {
    pausedBecause,
    /** Paused for a reason other than navigating (a replay, the pause button). */
    pause(reason: string): void {
      on.value = false;
      pausedByNavigating = false;
      pausedBecause.value = reason;
    },
    /** Following again: no reason to show. */
    clear(): void {
      pausedBecause.value = null;
      pausedByNavigating = false;
    },
  };
}

/** `now` runs only while the open trace has something in flight. */
function tickWhileInFlight(trace: TraceModel, now: Signal<number>): void {
  const anyInFlight = computed(() => trace.list.value.some((x) => x.timings.end === null));
  effect(() => {
    if (!anyInFlight.value) return;
    now.value = Date.now();
    const timer = setInterval(() => (now.value = Date.now()), TICK_MS);
    return () => clearInterval(timer);
  });
}
