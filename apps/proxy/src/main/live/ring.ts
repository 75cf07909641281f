/**
 * The recent frames of the live feed, for catch-up after a reconnect. Bounded by count and by bytes:
 * a chunky stream must not grow memory without limit. A client asking for frames older than the ring
 * gets a fresh snapshot instead.
 *
 * A frame published while no client is connected is kept unserialised (`build`, with an estimated size):
 * with nobody watching, most frames are never read, and serialising each one cost more CPU than forwarding
 * the exchange did. It is built (once) only when a reconnecting client asks for it.
 *
 * A frame the recording thread announced while nobody was watching is not even serialised there: it is
 * parked on that thread (`park`, its number there) and fetched when a resume needs it (see LiveFeed).
 *
 * Entries live in an array with a moving start index, compacted now and then, so dropping the oldest
 * frame is O(1).
 */
export interface RingEntry {
  seq: number;
  /** The serialised frame; absent until a client needs it when `build` is set. */
  data?: string;
  build?: () => string;
  /** The frame's number on the recording thread, where it is parked unserialised (fetched for a resume). */
  park?: number;
  /** Bytes counted against the ring's byte bound (data.length once built, an estimate before). */
  size: number;
}

export class FrameRing {
  private entries: RingEntry[] = [];
  private start = 0;
  private bytes = 0;

  constructor(
    private readonly maxFrames = 5000,
    private readonly maxBytes = 16 * 1024 * 1024,
  ) {}

  push(entry: RingEntry): void {
    this.entries.push(entry);
    this.bytes += entry.size;
    while (this.size > this.maxFrames || (this.bytes > this.maxBytes && this.size > 1)) {
      this.bytes -= this.entries[this.start]!.size;
      this.entries[this.start] = DROPPED;
      this.start++;
    }
    if (this.start > 1024 && this.start > this.entries.length / 2) {
      this.entries = this.entries.slice(this.start);
      this.start = 0;
    }
  }

  private get size(): number {
    return this.entries.length - this.start;
  }

  /** Serialised frames after `since`, or null when some of them are no longer kept (or parked elsewhere). */
  since(since: number, current: number): string[] | null {
    const wanted = this.entriesSince(since, current);
    if (wanted === null || wanted.some((e) => e.data === undefined && e.build === undefined)) return null;
    return wanted.map((e) => materialise(e));
  }

  /** The entries after `since` as they are (parked ones without their data), or null when some are gone. */
  entriesSince(since: number, current: number): RingEntry[] | null {
    if (since >= current) return [];
    const first = this.entries[this.start];
    if (!first || first.seq > since + 1) return null;
    // Seqs are consecutive, so the first wanted entry is at a known offset.
    return this.entries.slice(this.start + (since + 1 - first.seq));
  }
}

/** Placeholder for dropped slots, so the closures of old lazy frames can be collected before compaction. */
const DROPPED: RingEntry = { seq: -1, data: "", size: 0 };

/** The entry's serialised frame, built once (a parked entry must have been fetched first). */
export function materialise(e: RingEntry): string {
  if (e.data === undefined) {
    if (!e.build) throw new Error(`hopscope bug: frame ${e.seq} is parked on the recording thread and was not fetched`);
    e.data = e.build();
    e.build = undefined;
  }
  return e.data;
}
