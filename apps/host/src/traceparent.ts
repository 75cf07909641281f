/**
 * W3C Trace Context (`traceparent`, version 00) for one /agent request. The host continues the trace it
 * was given (same trace id, fresh span id for each outgoing call) or starts one, so a recorder such as
 * apps/proxy can group every hop of one question by trace id. Spec: https://www.w3.org/TR/trace-context/
 */
import { randomBytes } from "node:crypto";

const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(-.*)?$/;
const ALL_ZERO = /^0+$/;

export interface TraceContext {
  traceId: string;
  /** Span id of the caller (the incoming header), or null when the host started the trace. */
  parentId: string | null;
  flags: string;
}

/** Parse a `traceparent` header; null when absent or invalid (the spec says: then start a new trace). */
export function parseTraceparent(header: string | null | undefined): TraceContext | null {
  if (!header) return null;
  const m = TRACEPARENT.exec(header.trim().toLowerCase());
  if (!m) return null;
  const [, version, traceId, parentId, flags, rest] = m as unknown as [string, string, string, string, string, string?];
  // Version ff is forbidden; version 00 has exactly four fields, later versions may append more.
  if (version === "ff" || (version === "00" && rest !== undefined)) return null;
  if (ALL_ZERO.test(traceId) || ALL_ZERO.test(parentId)) return null;
  return { traceId, parentId, flags };
}

/** Continue the incoming trace, or start a sampled one when there is none. */
export function continueOrStartTrace(header: string | null | undefined): TraceContext {
  return parseTraceparent(header) ?? { traceId: randomHex(16), parentId: null, flags: "01" };
}

/** A `traceparent` for one outgoing call of this trace: same trace id, a new span id. */
export function childTraceparent(ctx: TraceContext): string {
  return `00-${ctx.traceId}-${randomHex(8)}-${ctx.flags}`;
}

function randomHex(bytes: number): string {
  for (;;) {
    const hex = randomBytes(bytes).toString("hex");
    if (!ALL_ZERO.test(hex)) return hex;
  }
}
