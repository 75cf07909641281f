/**
 * W3C Trace Context `traceparent` (https://www.w3.org/TR/trace-context/#traceparent-header):
 * `00-<32 hex trace-id>-<16 hex parent-id>-<2 hex flags>`. All-zero ids are invalid.
 */
import { isRecord } from "./json-text";

export interface TraceContext {
  version: string;
  traceId: string;
  parentId: string;
  flags: string;
}

const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(-.*)?$/;

export function parseTraceparent(value: string | null | undefined): TraceContext | null {
  if (!value) return null;
  const m = TRACEPARENT.exec(value.trim().toLowerCase());
  if (!m) return null;
  const [, version, traceId, parentId, flags, rest] = m as unknown as [
    string,
    string,
    string,
    string,
    string,
    string | undefined,
  ];
  if (version === "ff" || (version === "00" && rest !== undefined)) return null;
  if (/^0+$/.test(traceId) || /^0+$/.test(parentId)) return null;
  return { version, traceId, parentId, flags };
}

export function formatTraceparent(ctx: Pick<TraceContext, "traceId" | "parentId"> & { flags?: string }): string {
  return `00-${ctx.traceId}-${ctx.parentId}-${ctx.flags ?? "01"}`;
}

/** `params._meta.traceparent` of a JSON-RPC request (where MCP carries trace context). */
export function traceparentFromJsonRpc(body: unknown): string | null {
  if (!isRecord(body) || !isRecord(body.params) || !isRecord(body.params._meta)) return null;
  const tp = body.params._meta.traceparent;
  return typeof tp === "string" ? tp : null;
}

/** Lowercase hex of random bytes; `fill` is e.g. `crypto.getRandomValues` (passed in: shared/ has no globals). */
export function randomHex(bytes: number, fill: (a: Uint8Array) => Uint8Array): string {
  const a = fill(new Uint8Array(bytes));
  let s = "";
  for (const b of a) s += b.toString(16).padStart(2, "0");
  // An all-zero id is invalid per the spec; astronomically unlikely, but cheap to rule out.
  return /^0+$/.test(s) ? randomHex(bytes, fill) : s;
}
