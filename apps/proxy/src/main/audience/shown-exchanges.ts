/**
 * Which exchanges a viewer may read, answered without loading any exchange: the ids of the shown traces'
 * exchanges, kept from their summaries. An id not among them (unshown, or no such exchange) is refused at
 * the same cost either way, so a viewer learns nothing about what exists and cannot make the recorder load
 * large unshown exchanges. The summaries are read again at most every `refreshMs` when an id is not found
 * (an exchange recorded since).
 */
import type { Trace } from "@hopscope/shared/trace/schemas";
import type { AudienceSession } from "./session";

export interface ShownExchangesDeps {
  session: Pick<AudienceSession, "mayRead" | "shownTraceIds">;
  /** A trace's summaries: the store's, else the recording thread's for one still being recorded. */
  trace(id: string): Promise<Trace | null>;
  refreshMs?: number;
}

export class ShownExchanges {
  private readonly byTrace = new Map<string, Set<number>>();
  private refreshedAt = -Infinity;
  private refreshing: Promise<void> | null = null;

  constructor(private readonly deps: ShownExchangesDeps) {}

  /** The shown trace `id` belongs to, or null when a viewer may not read it. */
  async traceOf(id: number): Promise<string | null> {
    const known = this.find(id);
    if (known !== null) return known;
    // A trace shown since the last read is read at once; the ones known again only every `refreshMs`.
    const unread = this.deps.session.shownTraceIds().some((t) => !this.byTrace.has(t));
    if (!unread && Date.now() - this.refreshedAt < (this.deps.refreshMs ?? 100)) return null;
    // A read under way may have begun before the newest trace was shown: then one more.
    for (let pass = 0; pass < 2; pass++) {
      this.refreshing ??= this.refresh().finally(() => (this.refreshing = null));
      await this.refreshing;
      if (this.deps.session.shownTraceIds().every((t) => this.byTrace.has(t))) break;
    }
    return this.find(id);
  }

  private find(id: number): string | null {
    for (const [traceId, ids] of this.byTrace) if (ids.has(id) && this.deps.session.mayRead(traceId)) return traceId;
    return null;
  }

  private async refresh(): Promise<void> {
    this.refreshedAt = Date.now();
    const shown = this.deps.session.shownTraceIds();
    for (const traceId of this.byTrace.keys()) if (!shown.includes(traceId)) this.byTrace.delete(traceId);
    const traces = await Promise.all(shown.map((id) => this.deps.trace(id)));
    traces.forEach((t, i) => {
      if (t) this.byTrace.set(shown[i] as string, new Set(t.exchanges.map((x) => x.id)));
    });
  }
}
