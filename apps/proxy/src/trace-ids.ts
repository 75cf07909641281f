/**
 * Random ids (trace-ids, span ids) from a pool of random bytes refilled 4 KiB at a time: a single-exchange
 * trace needs a fresh trace-id per request, and one getRandomValues call per id showed up in profiles.
 */
import { randomFillSync } from "node:crypto";

const POOL_BYTES = 4096;
const pool = Buffer.alloc(POOL_BYTES);
let used = POOL_BYTES;

/** Lowercase hex of `bytes` random bytes, never all zeros (invalid as a W3C trace or parent id). */
export function randomHexId(bytes: number): string {
  for (;;) {
    if (used + bytes > POOL_BYTES) {
      randomFillSync(pool);
      used = 0;
    }
    const hex = pool.toString("hex", used, used + bytes);
    used += bytes;
    if (!ALL_ZERO.test(hex)) return hex;
  }
}

const ALL_ZERO = /^0+$/;

/**
 * A trace-id generator for the traces the recorder starts itself: 6 bytes of the time in ms, then 10 random
 * bytes (32 hex digits, never all zeros). Ids in time order keep SQLite's inserts at the right edge of the
 * trace-id B-trees (the traces table and the exchanges' trace index): a batch then rewrites a few pages
 * instead of one page per trace, and most live traces are new (one exchange each).
 */
export const traceIdSource = (): (() => string) => () => Date.now().toString(16).padStart(12, "0").slice(-12) + randomHexId(10);
