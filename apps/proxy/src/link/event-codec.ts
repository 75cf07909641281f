/**
 * Tap events packed for the trip to the recording thread: numbers in one Float64Array (transferred, not
 * cloned) and strings in one array, so a batch clones as a handful of values instead of five objects per
 * exchange (structured cloning the objects costs several times more on both threads than packing them).
 *
 * Layout, per event: its kind, then its numbers (below); strings in order in `strs`.
 *   begin    0 id tap start                        strs: method url upstream headers connection
 *   request  1 id size at(NaN: null) n [offset length]×n
 *   response 2 id status                           strs: headers
 *   chunk    3 id t size bytesOffset(-1: null) bytesLength textOffset(-1: none) textLength
 *   end      4 id state at                         strs: error
 * Headers are header blocks (shared/trace/header-block.ts), kept as such; spans are offsets into the batch's byte arena.
 */
import type { ExchangeState, Tap } from "@hopscope/shared/trace/schemas";
import type { EventBatch, Span, TapEvent } from "./protocol";

const TAPS: readonly Tap[] = ["model", "mcp", "agent"];
type EndState = Exclude<ExchangeState, "pending" | "streaming">;
const END_STATES: readonly EndState[] = ["complete", "error", "aborted"];

export class EventEncoder {
  private nums = new Float64Array(4096);
  private used = 0;
  private strs: (string | null)[] = [];
  count = 0;

  push(e: TapEvent): void {
    this.count++;
    switch (e.k) {
      case "begin":
        this.num4(0, e.id, TAPS.indexOf(e.tap), e.start);
        this.strs.push(e.method, e.url, e.upstream, e.headers, e.connection);
        return;
      case "request":
        this.num4(1, e.id, e.size, e.at ?? Number.NaN);
        this.num(e.parts.length);
        for (const [offset, length] of e.parts) {
          this.num(offset);
          this.num(length);
        }
        return;
      case "response":
        this.num(2);
        this.num(e.id);
        this.num(e.status);
        this.strs.push(e.headers);
        return;
      case "chunk":
        this.num4(3, e.id, e.t, e.size);
        this.num(e.bytes ? e.bytes[0] : -1);
        this.num(e.bytes ? e.bytes[1] : 0);
        this.num(e.text ? e.text[0] : -1);
        this.num(e.text ? e.text[1] : 0);
        return;
      case "end":
        this.num4(4, e.id, END_STATES.indexOf(e.state), e.at);
        this.strs.push(e.error);
        return;
    }
  }

  /** The batch's packed events (the encoder starts empty again); `nums` is to be transferred. */
  take(): Pick<EventBatch, "nums" | "count" | "strs"> {
    const out = { nums: this.nums, count: this.count, strs: this.strs };
    // The next batch is probably about as big as this one.
    this.nums = new Float64Array(Math.max(4096, this.used));
    this.used = 0;
    this.strs = [];
    this.count = 0;
    return out;
  }

  private num4(a: number, b: number, c: number, d: number): void {
    if (this.used + 4 > this.nums.length) this.grow();
    const n = this.nums;
    n[this.used] = a;
    n[this.used + 1] = b;
    n[this.used + 2] = c;
    n[this.used + 3] = d;
    this.used += 4;
  }

  private num(v: number): void {
    if (this.used === this.nums.length) this.grow();
    this.nums[this.used++] = v;
  }

  private grow(): void {
    const bigger = new Float64Array(this.nums.length * 2);
    bigger.set(this.nums);
    this.nums = bigger;
  }
}

/**
 * Each event of a batch in turn, as the Recorder handles them, built as it is handled: an event is garbage
 * as soon as its handler is done with it, rather than the whole batch staying alive until its last event (what survives a scavenge
 * is what the garbage collector pays for).
 */
export function forEachEvent(batch: Pick<EventBatch, "nums" | "count" | "strs">, handle: (e: TapEvent) => void): void {
  const { nums, strs } = batch;
  let i = 0;
  let s = 0;
  for (let n = 0; n < batch.count; n++) {
    const kind = nums[i] as number;
    const id = nums[i + 1] as number;
    switch (kind) {
      case 0: {
        const tap = TAPS[nums[i + 2] as number] as Tap;
        const start = nums[i + 3] as number;
        i += 4;
        const method = strs[s] as string;
        const url = strs[s + 1] as string;
        const upstream = strs[s + 2] as string;
        const headers = strs[s + 3] as string;
        const connection = strs[s + 4] ?? null;
        s += 5;
        handle({ k: "begin", id, tap, method, url, upstream, headers, connection, start });
        break;
      }
      case 1: {
        const size = nums[i + 2] as number;
        const at = nums[i + 3] as number;
        const count = nums[i + 4] as number;
        i += 5;
        const parts: Span[] = new Array(count);
        for (let p = 0; p < count; p++, i += 2) parts[p] = [nums[i] as number, nums[i + 1] as number];
        handle({ k: "request", id, parts, size, at: Number.isNaN(at) ? null : at });
        break;
      }
      case 2:
        handle({ k: "response", id, status: nums[i + 2] as number, headers: strs[s++] as string });
        i += 3;
        break;
      case 3: {
        const bytesAt = nums[i + 4] as number;
        const textAt = nums[i + 6] as number;
        const chunk: TapEvent = {
          k: "chunk",
          id,
          t: nums[i + 2] as number,
          size: nums[i + 3] as number,
          bytes: bytesAt < 0 ? null : [bytesAt, nums[i + 5] as number],
        };
        if (textAt >= 0) chunk.text = [textAt, nums[i + 7] as number];
        handle(chunk);
        i += 8;
        break;
      }
      case 4:
        handle({
          k: "end",
          id,
          state: END_STATES[nums[i + 2] as number] as EndState,
          at: nums[i + 3] as number,
          error: strs[s++] ?? null,
        });
        i += 4;
        break;
      default:
        throw new Error(`hopscope bug: unknown tap event kind ${kind} in a batch`);
    }
  }
}
