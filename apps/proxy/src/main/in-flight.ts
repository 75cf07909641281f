/**
 * Exchanges in flight as the API and the live feed list them: the recording thread's (from the taps) and
 * those that pass through no tap and are played on this thread (replays, the stdio ingest).
 */
import type { Exchange, ExchangeSummary, Trace, TraceSummary } from "@hopscope/shared/trace/schemas";
import type { RecordingLink } from "../link/calls";
import { maxOf } from "@hopscope/shared/json/extent";

/** Exchanges in flight that pass through no tap, listed with the taps' own. */
export interface InFlightSource {
  inFlight(): ExchangeSummary[];
  /** One of them whole, with what of its bodies is known (null: not this source's, or no longer in flight). */
  inFlightExchange?(id: number): Exchange | null;
}

export class InFlight {
  private readonly sources: InFlightSource[] = [];

  constructor(private readonly link: RecordingLink) {}

  addSource(source: InFlightSource): void {
    this.sources.push(source);
  }

  async exchanges(): Promise<ExchangeSummary[]> {
    return this.withSources(await this.link.call("inFlight"));
  }

  /** The live feed's snapshot: the latest traces and the exchanges in flight, read together. */
  async snapshot(limit: number): Promise<{ traces: TraceSummary[]; inFlight: ExchangeSummary[] }> {
    const s = await this.link.call("snapshot", limit);
    return { traces: s.traces, inFlight: this.withSources(s.inFlight) };
  }

  /** An exchange in flight with what of its bodies has arrived (null: not in flight). */
  async exchange(id: number): Promise<Exchange | null> {
    for (const s of this.sources) {
      const x = s.inFlightExchange?.(id);
      if (x) return x;
    }
    return this.link.call("inFlightExchange", id);
  }

  /**
   * A trace none of whose exchanges has completed yet (so it is not stored): built from the exchanges in
   * flight, so the UI can open a trace the moment its first exchange starts.
   */
  async trace(traceId: string): Promise<Trace | null> {
    const exchanges = (await this.exchanges()).filter((e) => e.traceId === traceId).sort((a, b) => a.seq - b.seq);
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
