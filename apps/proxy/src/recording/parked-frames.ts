/**
 * Frames the recorder announced while nobody was watching (no live-feed client, no audience viewer): kept
 * here as the recorder's own objects, not serialised, and serialised only if a reconnecting client resumes
 * past them. With nobody watching, serialising and posting every frame cost the recording thread more than
 * a fifth of its time per exchange, for frames that were almost never read.
 *
 * Bounded like the feed's ring (by count and by estimated bytes): older frames are dropped, and a resume
 * that needs one gets a snapshot instead.
 */
import type { FeedEvent } from "../live/frames";

interface Parked {
  event: FeedEvent;
  size: number;
}

export class ParkedFrames {
  private readonly frames = new Map<number, Parked>();
  private next = 1;
  private oldest = 1;
  private bytes = 0;

  constructor(
    private readonly maxFrames = 5000,
    private readonly maxBytes = 16 * 1024 * 1024,
  ) {}

  /** Keeps the event (it must not change afterwards) and returns its park number. */
  park(event: FeedEvent, size: number): number {
    const n = this.next++;
    this.frames.set(n, { event, size });
    this.bytes += size;
    while (this.frames.size > this.maxFrames || (this.bytes > this.maxBytes && this.frames.size > 1)) this.dropOldest();
    return n;
  }

  /** Each frame serialised (without seq), or null when it is no longer kept. */
  serialised(parks: readonly number[]): (string | null)[] {
    return parks.map((n) => {
      const p = this.frames.get(n);
      return p ? JSON.stringify(p.event) : null;
    });
  }

  private dropOldest(): void {
    while (this.oldest < this.next && !this.frames.has(this.oldest)) this.oldest++;
    const p = this.frames.get(this.oldest);
    if (!p) return;
    this.frames.delete(this.oldest);
    this.bytes -= p.size;
    this.oldest++;
  }
}

/** A frame's serialised size, estimated without serialising it (a chunk's text dominates its frame). */
export function estimatedSize(event: FeedEvent): number {
  return event.type === "exchange.chunk" ? 160 + (event.text?.length ?? 0) : 1024;
}
