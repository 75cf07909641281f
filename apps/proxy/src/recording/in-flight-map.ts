/**
 * The exchanges in flight, by number: an entry is added when an exchange begins and removed when it ends,
 * thousands of times a second, while only a few are in flight at once.
 *
 * A plain Map under that churn rehashes its table every few exchanges (deleted entries fill it, and a
 * table far emptier than its capacity shrinks), and V8 links each obsolete table to its successor and
 * leaves it holding the entries it had; once one is old, every later table and the drafts it held survive
 * scavenges until the next full GC (see recent-map.ts). Here a removal only clears the entry's value, so the
 * table is never rehashed by removals; when cleared entries outnumber the live ones (and a few hundred),
 * the live ones move to a fresh Map and the old one, with all of its history, is dropped at once.
 */
const MIN_CLEARED = 256;

export class InFlightMap<V> {
  private entries = new Map<number, V | undefined>();
  private cleared = 0;

  get size(): number {
    return this.entries.size - this.cleared;
  }

  get(key: number): V | undefined {
    return this.entries.get(key);
  }

  set(key: number, value: V): void {
    if (this.entries.get(key) === undefined && this.entries.has(key)) this.cleared--;
    this.entries.set(key, value);
  }

  delete(key: number): void {
    if (this.entries.get(key) === undefined) return;
    this.entries.set(key, undefined);
    if (++this.cleared >= MIN_CLEARED && this.cleared > this.size) this.compact();
  }

  /** In the order their keys were first set (ids only grow: the order they began). */
  *values(): IterableIterator<V> {
    for (const v of this.entries.values()) if (v !== undefined) yield v;
  }

  private compact(): void {
    const live = new Map<number, V | undefined>();
    for (const [k, v] of this.entries) if (v !== undefined) live.set(k, v);
    this.entries = live;
    this.cleared = 0;
  }
}
