/**
 * Plays one replay plan in real time into the live feed and the store. One timer at a time, set for the
 * next due event; when it fires, every event due by then is emitted in order, so a late timer (a busy
 * event loop) delays frames but never reorders or drops them.
 */
import type { Exchange, ExchangeSummary } from "@hopscope/shared/trace/schemas";
import type { Announce } from "../../link/frames";
import type { RecordingLink } from "../../link/calls";
import type { ReplayEvent, ReplayPlan } from "./plan";
import { ReplayedExchange } from "./replayed-exchange";

/** Node timers have millisecond resolution: an event due within this much of now is due now. */
const EARLY_MS = 1;

/** Where a replay reads the time (ms) and sets its one timer: the process's own, or a test's that sets the pace. */
export interface ReplayClock {
  now(): number;
  setTimer(fire: () => void, ms: number): { cancel(): void };
}

export const processClock: ReplayClock = {
  now: () => performance.now(),
  setTimer(fire, ms) {
    const timer = setTimeout(fire, ms);
    return { cancel: () => clearTimeout(timer) };
  },
};

export interface PlayerDeps {
  announce: Announce;
  link: RecordingLink;
  clock: ReplayClock;
  /** Called once when the last event has been played, or with the error that stopped the replay. */
  onEnd: (player: ReplayPlayer, err?: unknown) => void;
}

export class ReplayPlayer {
  private readonly exchanges: ReplayedExchange[];
  private next = 0;
  private timer: { cancel(): void } | null = null;
  private startPerf = 0;

  constructor(
    readonly plan: ReplayPlan,
    /** Recorded pace × speed (2 = twice as fast). */
    readonly speed: number,
    private readonly deps: PlayerDeps,
  ) {
    this.exchanges = plan.exchanges.map((e) => new ReplayedExchange(e));
  }

  get traceId(): string {
    return this.plan.traceId;
  }

  start(): void {
    this.startPerf = this.deps.clock.now();
    this.schedule();
  }

  /** Stops playing (no timer is left); what was already sent and stored stays. */
  stop(): void {
    this.timer?.cancel();
    this.timer = null;
  }

  /** Exchanges started and not yet completed, as the API lists exchanges in flight. */
  inFlight(): ExchangeSummary[] {
    return this.exchanges.flatMap((x) => x.inFlight() ?? []);
  }

  /** One of this replay's exchanges in flight, whole as far as it has played (null: not in flight here). */
  inFlightExchange(id: number): Exchange | null {
    return this.exchanges.find((x) => x.id === id)?.inFlightExchange() ?? null;
  }

  private schedule(): void {
    const event = this.plan.events[this.next];
    if (!event) return this.deps.onEnd(this);
    const wait = event.at / this.speed - (this.deps.clock.now() - this.startPerf);
    this.timer = this.deps.clock.setTimer(() => this.tick(), Math.max(0, wait));
  }

  private tick(): void {
    this.timer = null;
    const due = (this.deps.clock.now() - this.startPerf + EARLY_MS) * this.speed;
    try {
      for (let e = this.plan.events[this.next]; e && e.at <= due; e = this.plan.events[++this.next]) this.emit(e);
    } catch (err) {
      // A frame the feed refuses or a store failure: this replay cannot go on; the others are unaffected.
      return this.deps.onEnd(this, err);
    }
    this.schedule();
  }

  private emit(event: ReplayEvent): void {
    const x = this.exchanges[event.exchange];
    if (!x) throw new Error(`hopscope bug: replay event for exchange #${event.exchange}, which the plan does not have`);
    const { announce, link } = this.deps;
    switch (event.kind) {
      case "started":
        return announce({ type: "exchange.started", exchange: x.started() });
      case "chunk": {
        const { chunk, text } = x.chunk(event.chunk);
        return announce({
          type: "exchange.chunk",
          exchangeId: x.id,
          traceId: this.traceId,
          chunk,
          ...(text === undefined ? {} : { text }),
        });
      }
      case "completed": {
        const summary = x.completed();
        // Queued like a recorded exchange: the store's flush then announces `trace.updated` with the links.
        link
          .call("enqueue", x.record(this.plan.name, this.plan.groupedBy))
          .catch((err: unknown) => this.deps.onEnd(this, err));
        return announce({ type: "exchange.completed", exchange: summary });
      }
    }
  }
}
