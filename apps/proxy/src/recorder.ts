/**
 * The recorder's live state: exchanges in flight, grouping into traces, and what gets announced on the
 * live feed and queued for SQLite. Taps call it as bytes pass; nothing here awaits, so forwarding never
 * waits on recording.
 */
import type { ExchangeSummary, Tap, Trace } from "@hopscope/shared/trace/schemas";
import { FallbackGrouper } from "@hopscope/shared/trace/group";
import { LESSON_HEADER } from "@hopscope/shared/ollama/schemas";
import type { TraceStore } from "./store/trace-store";
import type { Announce } from "./live/frames";
import { getHeader } from "./tap/hop-headers";
import { LiveExchange } from "./live-exchange";
/** Bound on remembered per-trace sequence counters. */
const MAX_SEQ_ENTRIES = 2000;

export interface RecorderDeps {
  store: TraceStore;
  announce: Announce;
  maxBodyBytes: number;
  newTraceId: () => string;
}

export interface BeginInit {
  tap: Tap;
  method: string;
  /** Path and query as the client sent them. */
  url: string;
  upstream: string;
  /** Request headers as received (before redaction, after the tap's own additions). */
  requestHeaders: [string, string][];
}


/** Exchanges in flight that pass through no tap (replays of saved traces), listed with the taps' own. */
export interface InFlightSource {
  inFlight(): ExchangeSummary[];
}

export class Recorder {
  private nextId: number;
  private readonly inFlightSources: InFlightSource[] = [];
  private readonly live = new Map<number, LiveExchange>();
  private readonly seqs = new Map<string, number>();
  readonly grouper: FallbackGrouper;
  /** The last `x-hopscope-lesson` a model request carried (shown by /api/config). */
  lastLesson: string | null = null;

  constructor(readonly deps: RecorderDeps) {
    this.nextId = deps.store.maxExchangeId() + 1;
    this.grouper = new FallbackGrouper({ newTraceId: deps.newTraceId });
  }

  begin(init: BeginInit): LiveExchange {
    const ex = new LiveExchange(this, this.nextId++, init);
    this.live.set(ex.id, ex);
    if (init.tap === "model") this.lastLesson = getHeader(init.requestHeaders, LESSON_HEADER) ?? this.lastLesson;
    return ex;
  }

  /** Ids for exchanges written by import (they share the id space of recorded ones). */
  allocateIds(n: number): number[] {
    return Array.from({ length: n }, () => this.nextId++);
  }

  get(id: number): LiveExchange | undefined {
    return this.live.get(id);
  }

  inFlight(): ExchangeSummary[] {
    const own = [...this.live.values()].filter((e) => e.traceId !== null).map((e) => e.summary());
    return this.inFlightSources.length === 0 ? own : own.concat(...this.inFlightSources.map((s) => s.inFlight()));
  }

  addInFlightSource(source: InFlightSource): void {
    this.inFlightSources.push(source);
  }

  /**
   * A trace none of whose exchanges has completed yet (so it is not stored): built from the exchanges in
   * flight, so the UI can open a trace the moment its first exchange starts.
   */
  liveTrace(traceId: string): Trace | null {
    const exchanges = this.inFlight()
      .filter((e) => e.traceId === traceId)
      .sort((a, b) => a.seq - b.seq);
    const first = exchanges[0];
    if (!first) return null;
    const question = exchanges.find((e) => e.classification.kind === "agent")?.classification;
    return {
      id: traceId,
      name: question?.kind === "agent" && question.message ? question.message : `${first.method} ${first.url}`,
      source: "live",
      createdAt: first.timings.start,
      updatedAt: Math.max(...exchanges.map((e) => e.timings.start)),
      exchangeCount: exchanges.length,
      errorCount: 0,
      groupedBy: this.live.get(first.id)?.grouping ?? "single",
      simulated: null,
      savedAs: null,
      exchanges,
      links: [],
    };
  }

  /** @internal */
  nextSeq(traceId: string, fresh = false): number {
    const current = this.seqs.get(traceId) ?? (fresh ? 0 : this.deps.store.maxSeq(traceId));
    this.seqs.delete(traceId);
    this.seqs.set(traceId, current + 1);
    if (this.seqs.size > MAX_SEQ_ENTRIES) this.seqs.delete(this.seqs.keys().next().value as string);
    return current + 1;
  }

  /** @internal */
  done(ex: LiveExchange): void {
    this.live.delete(ex.id);
  }

  forgetTrace(traceId: string): void {
    this.seqs.delete(traceId);
  }
}

