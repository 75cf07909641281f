/**
 * The chat turns the grouper remembers (group.ts), oldest first, and by message count: a request can only
 * continue a turn with fewer messages than it has, so it looks at those alone, longest first, instead of
 * comparing itself with every remembered turn (up to 500, each on every request).
 */
export class TurnIndex<T extends { readonly keys: readonly string[] }> {
  private all: T[] = [];
  private readonly byLength = new Map<number, T[]>();

  get size(): number {
    return this.all.length;
  }

  push(turn: T): void {
    this.all.push(turn);
    const n = turn.keys.length;
    const list = this.byLength.get(n);
    if (list) list.push(turn);
    else this.byLength.set(n, [turn]);
  }

  /** Forgets the oldest turns beyond `max`. */
  trim(max: number): void {
    if (this.all.length <= max) return;
    for (const turn of this.all.splice(0, this.all.length - max)) {
      const n = turn.keys.length;
      const list = this.byLength.get(n) as T[];
      // The oldest turn is the oldest of its length too.
      list.shift();
      if (list.length === 0) this.byLength.delete(n);
    }
  }

  /** Keeps the turns that pass, in order. */
  retain(keep: (turn: T) => boolean): void {
    const kept = this.all.filter(keep);
    this.all = [];
    this.byLength.clear();
    for (const turn of kept) this.push(turn);
  }

  /** The turns with exactly `n` messages, oldest first. */
  withLength(n: number): readonly T[] {
    return this.byLength.get(n) ?? NONE;
  }
}

const NONE: readonly never[] = [];
