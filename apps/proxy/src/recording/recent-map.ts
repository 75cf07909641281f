/**
 * A bounded map that forgets the least recently used keys past its bound, without reordering on every use.
 *
 * Why not a Map kept in LRU order by delete + set on every use: that churn makes V8 rehash the table every
 * few uses, and each obsolete table keeps a link to its successor (for iterators that were walking it) and
 * the entries it held. Once one of those tables has been promoted to the old generation, every later table
 * and everything it held survive scavenges until the next full GC. In the recorder that churn made a third of
 * the bytes that outlived a scavenge under load (docs/recorder-performance.md, item 11).
 *
 * Instead a used entry is marked newest again only once it has aged past half the bound (age: keys added or
 * marked since it last was), so a key in use is never the oldest, and that happens once per half a bound.
 * The order lives in a queue of (key, stamp) beside the Map, so forgetting the oldest is O(1): asking the
 * Map for its first key walks past every entry deleted since its last rehash, up to the bound, twice per
 * exchange when every exchange starts a trace.
 */

/** Bound on the per-trace counters and names the recorder and the stdio ingest remember. */
export const MAX_TRACE_ENTRIES = 2000;

export class RecentMap<V> {
  private readonly entries = new Map<string, { value: V; stamp: number }>();
  private clock = 0;
  /** Keys oldest first, each with the stamp it had when queued; one whose entry has another stamp is stale. */
  private queue: string[] = [];
  private stamps: number[] = [];
  private head = 0;

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
    if (this.entries.size >= this.max) this.forgetOldest();
    const entry = { value, stamp: 0 };
    this.entries.set(key, entry);
    this.mark(key, entry);
  }

  delete(key: string): void {
    // Its place in the queue goes stale: skipped when it comes up.
    this.entries.delete(key);
  }

  private touch(key: string, e: { value: V; stamp: number }): void {
    if (this.clock - e.stamp > this.max / 2) this.mark(key, e);
  }

  /** Makes the entry the newest. */
  private mark(key: string, e: { value: V; stamp: number }): void {
    e.stamp = ++this.clock;
    this.queue.push(key);
    this.stamps.push(e.stamp);
    // Places already passed, or gone stale (keys marked again, deleted), are dropped once they are most of it.
    if (
      (this.head > 1024 && this.head > this.queue.length / 2) ||
      this.queue.length - this.head > 2 * this.entries.size + 64
    )
      this.compact();
  }

  private compact(): void {
    const queue: string[] = [];
    const stamps: number[] = [];
    for (let i = this.head; i < this.queue.length; i++) {
      const key = this.queue[i] as string;
      const stamp = this.stamps[i] as number;
      if (this.entries.get(key)?.stamp !== stamp) continue;
      queue.push(key);
      stamps.push(stamp);
    }
    this.queue = queue;
    this.stamps = stamps;
    this.head = 0;
  }

  private forgetOldest(): void {
    while (this.head < this.queue.length) {
      const key = this.queue[this.head] as string;
      const stamp = this.stamps[this.head] as number;
      this.head++;
      if (this.entries.get(key)?.stamp === stamp) {
        this.entries.delete(key);
        return;
      }
    }
  }
}
