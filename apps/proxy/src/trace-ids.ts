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

/** A trace-id generator (16 random bytes as 32 hex digits). */
export const traceIdSource = (): (() => string) => () => randomHexId(16);
