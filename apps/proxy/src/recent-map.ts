/**
 * A bounded map that forgets the least recently used keys past its bound, without reordering on every use.
 *
 * Why not a Map kept in LRU order by delete + set on every use: that churn makes V8 rehash the table every
 * few uses, and each obsolete table keeps a link to its successor (for iterators that were walking it) and
 * the entries it held. Once one of those tables has been promoted to the old generation, every later table
 * and everything it held survive scavenges until the next full GC. In the recorder that churn made a third of
 * the bytes that outlived a scavenge under load (docs/recorder-performance.md, item 11).
 *
 * Instead a used entry moves to the newest end only once it has aged past half the bound (age: keys added or
 * moved since it last was), so a key in use is never the oldest, and moves happen once per half a bound.
 */

/** Bound on the per-trace counters and names the recorder and the stdio ingest remember. */
export const MAX_TRACE_ENTRIES = 2000;

export class RecentMap<V> {
  private readonly entries = new Map<string, { value: V; stamp: number }>();
  private clock = 0;

  constructor(private readonly max: number) {}

  get size(): number {
    return this.entries.size;
  }

  get(key: string): V | undefined {
    const e = this.entries.get(key);
    if (!e) return undefined;
    this.touch(key, e);
    return e.value;
  }

  set(key: string, value: V): void {
    const e = this.entries.get(key);
    if (e) {
      e.value = value;
      this.touch(key, e);
      return;
    }
    if (this.entries.size >= this.max) this.entries.delete(this.entries.keys().next().value as string);
    this.entries.set(key, { value, stamp: ++this.clock });
  }

  delete(key: string): void {
    this.entries.delete(key);
  }

  private touch(key: string, e: { value: V; stamp: number }): void {
    if (this.clock - e.stamp <= this.max / 2) return;
    this.entries.delete(key);
    e.stamp = ++this.clock;
    this.entries.set(key, e);
  }
}
