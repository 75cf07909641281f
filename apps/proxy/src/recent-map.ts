/**
 * A bounded map that forgets the least recently used keys past its bound, without reordering on use.
 *
 * Why not a Map kept in LRU order by delete + set on every use: that churn makes V8 rehash the table every
 * few uses, and each obsolete table keeps a link to its successor (for iterators that were walking it) and
 * the entries it held. Once one of those tables has been promoted to the old generation, every later table
 * and everything it held survive scavenges until the next full GC. In the recorder that churn was half of
 * what its thread promoted under load (docs/recorder-performance.md, item 11).
 *
 * Instead each entry carries a "used" bit (the second-chance, or CLOCK, policy): past the bound the oldest
 * entry is forgotten unless it was used since it was last passed over; then it moves to the newest end once.
 */
/** Bound on the per-trace counters and names the recorder and the stdio ingest remember. */
export const MAX_TRACE_ENTRIES = 2000;

export class RecentMap<V> {
  private readonly entries = new Map<string, { value: V; used: boolean }>();

  constructor(private readonly max: number) {}

  get size(): number {
    return this.entries.size;
  }

  get(key: string): V | undefined {
    const e = this.entries.get(key);
    if (!e) return undefined;
    e.used = true;
    return e.value;
  }

  set(key: string, value: V): void {
    const e = this.entries.get(key);
    if (e) {
      e.value = value;
      e.used = true;
      return;
    }
    if (this.entries.size >= this.max) this.forgetOne();
    this.entries.set(key, { value, used: false });
  }

  delete(key: string): void {
    this.entries.delete(key);
  }

  /** Forgets the oldest entry not used since it was last passed over (ends: every pass clears a bit). */
  private forgetOne(): void {
    for (const [key, e] of this.entries) {
      this.entries.delete(key);
      if (!e.used) return;
      e.used = false;
      this.entries.set(key, e);
    }
  }
}
