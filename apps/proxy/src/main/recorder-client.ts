/**
 * What the API asks of the recorder, on the main thread: exchanges in flight (the recording thread's, and
 * those of replays playing here), ids for imports and replays, the last workshop lesson. Every answer comes
 * from the recording thread (link/threads.ts), which decides all of it.
 */
import type { Exchange, ExchangeSummary, Trace, TraceSummary } from "@hopscope/shared/trace/schemas";
import type { RecorderThreads } from "../link/threads";
import { maxOf } from "@hopscope/shared/json/extent";

/** Exchanges in flight that pass through no tap (replays of saved traces), listed with the taps' own. */
export interface InFlightSource {
  inFlight(): ExchangeSummary[];
  /** One of them whole, with what of its bodies is known (null: not this source's, or no longer in flight). */
  inFlightExchange?(id: number): Exchange | null;
}

export class RecorderClient {
  private readonly sources: InFlightSource[] = [];

  constructor(private readonly threads: RecorderThreads) {}

  addInFlightSource(source: InFlightSource): void {
    this.sources.push(source);
  }

  async inFlight(): Promise<ExchangeSummary[]> {
    return this.withSources((await this.threads.call({ op: "inFlight" })) as ExchangeSummary[]);
  }

  /** The live feed's snapshot: the latest traces and the exchanges in flight, read together. */
  async snapshot(limit: number): Promise<{ traces: TraceSummary[]; inFlight: ExchangeSummary[] }> {
    const s = (await this.threads.call({ op: "snapshot", limit })) as {
      traces: TraceSummary[];
      inFlight: ExchangeSummary[];
    };
    return { traces: s.traces, inFlight: this.withSources(s.inFlight) };
  }

  /** An exchange in flight with what of its bodies has arrived (null: not in flight). */
  async inFlightExchange(id: number): Promise<Exchange | null> {
    for (const s of this.sources) {
      const x = s.inFlightExchange?.(id);
      if (x) return x;
    }
    return (await this.threads.call({ op: "inFlightExchange", id })) as Exchange | null;
  }

  /** The last `x-hopscope-lesson` a model request carried (shown by /api/config). */
  /** Frames parked on the recording thread while nobody watched, serialised (null: no longer kept). */
  async parkedFrames(parks: number[]): Promise<(string | null)[]> {
    return (await this.threads.call({ op: "parkedFrames", parks })) as (string | null)[];
  }

  async lastLesson(): Promise<string | null> {
    return (await this.threads.call({ op: "lesson" })) as string | null;
  }

  /** Ids for exchanges written by import and replay (they share the id space of recorded ones). */
  async allocateIds(count: number): Promise<number[]> {
    return (await this.threads.call({ op: "allocateIds", count })) as number[];
  }

  /**
   * A trace none of whose exchanges has completed yet (so it is not stored): built from the exchanges in
   * flight, so the UI can open a trace the moment its first exchange starts.
   */
  async liveTrace(traceId: string): Promise<Trace | null> {
    const exchanges = (await this.inFlight()).filter((e) => e.traceId === traceId).sort((a, b) => a.seq - b.seq);
    const first = exchanges[0];
    if (!first) return null;
    const question = exchanges.find((e) => e.classification.kind === "agent")?.classification;
    return {
      id: traceId,
      name: question?.kind === "agent" && question.message ? question.message : `${first.method} ${first.url}`,
      source: "live",
      createdAt: first.timings.start,
      updatedAt: maxOf(exchanges.map((e) => e.timings.start)),
      exchangeCount: exchanges.length,
      errorCount: 0,
      groupedBy: "single",
      simulated: null,
      savedAs: null,
      exchanges,
      links: [],
    };
  }

  private withSources(own: ExchangeSummary[]): ExchangeSummary[] {
    return this.sources.length === 0 ? own : own.concat(...this.sources.map((s) => s.inFlight()));
  }
}
