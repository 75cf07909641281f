/**
 * The recent frames of the live feed, for catch-up after a reconnect. Bounded by count and by bytes:
 * a chunky stream must not grow memory without limit. A client asking for frames older than the ring
 * gets a fresh snapshot instead.
 *
 * Entries live in an array with a moving start index, compacted now and then, so dropping the oldest
 * frame is O(1) (publishing is on the taps' event loop).
 */
export interface RingEntry {
  seq: number;
  data: string;
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
    this.bytes += entry.data.length;
    while (this.size > this.maxFrames || (this.bytes > this.maxBytes && this.size > 1)) {
      this.bytes -= this.entries[this.start]!.data.length;
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

  /** Frames after `since`, or null when some of them are no longer kept. */
  since(since: number, current: number): RingEntry[] | null {
    if (since >= current) return [];
    const first = this.entries[this.start];
    if (!first || first.seq > since + 1) return null;
    // Seqs are consecutive, so the first wanted entry is at a known offset.
    return this.entries.slice(this.start + (since + 1 - first.seq));
  }
}
