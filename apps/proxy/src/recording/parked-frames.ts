/**
 * Frames the recorder announced while nobody was subscribed (no live-feed client, no audience viewer): kept
 * here as the recorder's own objects, not serialised, and serialised only if a reconnecting client resumes
 * past them. With nobody watching, serialising and posting every frame would be the recording thread's
 * largest cost per exchange, for frames that are almost never read.
 *
 * Bounded by count and by estimated bytes: older frames are dropped, and a resume that needs one gets a
 * snapshot instead. The count is a fifth of the feed's ring: 1,000 frames are some 50 questions of an agent
 * while nobody watched, and under a saturating load they die before a second scavenge instead of being
 * promoted (a ring five times as long kept them alive long enough to be promoted).
 */
import type { FeedEvent } from "../link/frames";
import { MAX_CHUNK_TEXT } from "../link/protocol";

/** A frame, or how to build it when it is read (a trace's frame reads the store as it is then). */
export type ParkedFrame = FeedEvent | (() => FeedEvent);

export class ParkedFrames {
  /** Frames by park number, oldest first: `frames[i]` is number `first + i` (an array: parking is per frame). */
  private frames: (ParkedFrame | null)[] = [];
  private sizes: number[] = [];
  private start = 0;
  private first = 1;
  private bytes = 0;

  constructor(
    private readonly maxFrames = 1000,
    private readonly maxBytes = 16 * 1024 * 1024,
  ) {}

  /** Keeps the event (it must not change afterwards) and returns its park number. */
  park(event: ParkedFrame, size: number): number {
    this.frames.push(event);
    this.sizes.push(size);
    this.bytes += size;
    while (this.count > this.maxFrames || (this.bytes > this.maxBytes && this.count > 1)) {
      this.bytes -= this.sizes[this.start] as number;
      this.frames[this.start] = null;
      this.start++;
    }
    if (this.start > 1024 && this.start > this.frames.length / 2) {
      this.frames = this.frames.slice(this.start);
      this.sizes = this.sizes.slice(this.start);
      this.first += this.start;
      this.start = 0;
    }
    return this.first + this.frames.length - 1;
  }

  /** Each frame serialised (without seq), or null when it is no longer kept. */
  serialised(parks: readonly number[]): (string | null)[] {
    return parks.map((n) => {
      const i = n - this.first;
      const e = i >= this.start ? this.frames[i] : undefined;
      return e ? JSON.stringify(typeof e === "function" ? e() : e) : null;
    });
  }

  private get count(): number {
    return this.frames.length - this.start;
  }
}

/** A frame's serialised size, estimated without serialising it (a chunk's text dominates its frame). */
export function estimatedSize(event: FeedEvent): number {
  // A chunk's text is decoded only when its frame is serialised (recorder.ts): estimated from its size.
  return event.type === "exchange.chunk" ? 160 + Math.min(event.chunk.size, MAX_CHUNK_TEXT) : 1024;
}
