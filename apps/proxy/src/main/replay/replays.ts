/**
 * The replays in progress (`POST /api/replay`): each plays a saved trace as a new trace, into the live
 * feed and the store, at its recorded pace (× speed). Several may run at once. The recorder lists their
 * exchanges in flight with the taps' own (snapshot, GET /api/traces/:id, GET /api/exchanges/:id). close() stops them all and
 * removes their unfinished traces: a replay cut short is an incomplete copy of a trace that still exists.
 * A trace's notes-file changes come along (given the notes table): its file lane shows in the replay too.
 */
import type { TraceBundle } from "@hopscope/shared/trace/bundle";
import type { ReplayStarted, ReplaysPlaying } from "@hopscope/shared/trace/replay";
import type { Exchange, ExchangeSummary } from "@hopscope/shared/trace/schemas";
import { randomHex } from "@hopscope/shared/trace/traceparent";
import type { Announce } from "../../link/frames";
import type { Logger } from "../../logger";
import type { InFlight } from "../in-flight";
import type { RecordingLink } from "../../link/calls";
import type { NotesTable } from "../notes/notes-table";
import { nowEpoch } from "../../clock";
import { planReplay } from "./plan";
import { ReplayPlayer, processClock, type ReplayClock } from "./player";

export interface ReplaysDeps {
  link: RecordingLink;
  inFlight: InFlight;
  announce: Announce;
  logger: Logger;
  /** The process's clock unless a test sets the pace. */
  clock?: ReplayClock;
}

export class Replays {
  private readonly players = new Set<ReplayPlayer>();
  private closed = false;

  constructor(private readonly deps: ReplaysDeps) {
    deps.inFlight.addSource(this);
  }

  /** Replays running now. */
  get active(): number {
    return this.players.size;
  }

  /**
   * Stores the new (empty) trace, announces it, and starts playing; returns at once. The bundle must have
   * at least one exchange (the route says so to the user otherwise).
   */
  async start(bundle: TraceBundle, speed: number, notes?: NotesTable): Promise<ReplayStarted> {
    if (this.closed) throw new Error("the recorder is shutting down; replays cannot start");
    if (bundle.exchanges.length === 0) throw new Error("hopscope bug: a replay needs at least one exchange");
    const { link, announce } = this.deps;
    const plan = planReplay(bundle, {
      traceId: randomHex(16, (a) => crypto.getRandomValues(a)),
      ids: await link.call("allocateIds", bundle.exchanges.length),
      now: nowEpoch(),
    });
    // Stored now, named and marked imported (a name set here sticks), so the trace list shows it at once.
    const summary = await link.call(
      "insertTrace",
      {
        id: plan.traceId,
        name: plan.name,
        groupedBy: plan.groupedBy,
        createdAt: plan.startedAt,
        updatedAt: plan.startedAt,
      },
      [],
    );
    // The trace's notes-file changes, stored with it before anyone opens it: each is drawn when its tools/call
    // is on screen (the lane shows a change on its call's hop). Not announced as `notes.changed`: the file did not change.
    if (notes) {
      let id = notes.nextId();
      for (const c of plan.notes) notes.insert({ ...c, id: id++ });
    }
    announce({ type: "trace.updated", trace: summary, links: [] });
    if (this.closed) throw new Error("the recorder is shutting down; replays cannot start");
    const player = new ReplayPlayer(plan, speed, {
      announce,
      link: this.deps.link,
      clock: this.deps.clock ?? processClock,
      onEnd: (p, err) => this.ended(p, err),
    });
    this.players.add(player);
    player.start();
    this.deps.logger.info(
      { traceId: plan.traceId, from: bundle.trace.id, speed, exchanges: plan.exchanges.length },
      "replay started",
    );
    return {
      traceId: plan.traceId,
      name: plan.name,
      exchangeCount: plan.exchanges.length,
      durationMs: plan.durationMs,
    };
  }

  /** The replays playing now, oldest first (GET /api/replay: a page opened mid-replay follows the newest). */
  playing(): ReplaysPlaying["replays"] {
    return [...this.players].map(({ plan, speed }) => ({
      traceId: plan.traceId,
      name: plan.name,
      exchangeCount: plan.exchanges.length,
      durationMs: plan.durationMs,
      speed,
      startedAt: plan.startedAt,
    }));
  }

  /** For the recorder: replayed exchanges in flight. */
  inFlight(): ExchangeSummary[] {
    return [...this.players].flatMap((p) => p.inFlight());
  }

  /** For the recorder: one replayed exchange in flight, whole as far as it has played (GET /api/exchanges/:id). */
  inFlightExchange(id: number): Exchange | null {
    for (const p of this.players) {
      const x = p.inFlightExchange(id);
      if (x) return x;
    }
    return null;
  }

  /** Stops every replay (no timer is left) and removes their unfinished traces. Call before the store closes. */
  async close(): Promise<void> {
    this.closed = true;
    const stopped = [...this.players];
    for (const p of stopped) {
      p.stop();
      this.players.delete(p);
    }
    await Promise.all(stopped.map((p) => this.discard(p)));
  }

  private ended(player: ReplayPlayer, err?: unknown): void {
    this.players.delete(player);
    if (err === undefined) return;
    this.deps.logger.error({ err, traceId: player.traceId }, "replay failed; its unfinished trace is removed");
    void this.discard(player);
  }

  private async discard(player: ReplayPlayer): Promise<void> {
    try {
      if (await this.deps.link.call("delete", player.traceId))
        this.deps.announce({ type: "trace.deleted", traceId: player.traceId });
    } catch (err) {
      this.deps.logger.error({ err, traceId: player.traceId }, "could not remove an unfinished replay");
    }
  }
}
