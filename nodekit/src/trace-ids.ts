/**
 * Random W3C trace ids and `traceparent` values (https://www.w3.org/TR/trace-context/), from a pool of
 * random bytes refilled 4 KiB at a time: a tap needs a fresh trace-id per request, and one
 * getRandomValues call per id showed up in profiles.
 */
import { randomFillSync } from "node:crypto";
import { formatTraceparent, parseTraceparent, type TraceContext } from "@hopscope/shared/trace/traceparent";

const POOL_BYTES = 4096;
const pool = Buffer.alloc(POOL_BYTES);
let used = POOL_BYTES;
const ALL_ZERO = /^0+$/;

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

/** A `traceparent` starting a new sampled trace. */
export function newTraceparent(): string {
  return formatTraceparent({ traceId: randomHexId(16), parentId: randomHexId(8) });
}

/** A `traceparent` for one outgoing call of `ctx`'s trace: same trace id and flags, a new span id. */
export function childTraceparent(ctx: Pick<TraceContext, "traceId" | "flags">): string {
  return formatTraceparent({ traceId: ctx.traceId, parentId: randomHexId(8), flags: ctx.flags });
}

/** The trace a request belongs to: `parentId` is the caller's span, or null when this process started it. */
export interface RequestTrace {
  traceId: string;
  parentId: string | null;
  flags: string;
}

/** The trace of an incoming request: its own `traceparent` when valid, else a new sampled trace. */
export function continueOrStartTrace(header: string | null | undefined): RequestTrace {
  const given = parseTraceparent(header);
  return given
    ? { traceId: given.traceId, parentId: given.parentId, flags: given.flags }
    : { traceId: randomHexId(16), parentId: null, flags: "01" };
}
