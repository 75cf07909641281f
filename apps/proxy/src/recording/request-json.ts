/**
 * A request body as the recorder reads it, parsed once per exchange. A coding agent's model request is
 * mostly its tool definitions (70 of Claude Code's 90 KB), which grouping and naming never read: a big
 * body's members are found in its bytes (json-members.ts) and parsed one by one, the tools left as bytes,
 * counted, and parsed once when something asks for the whole (the classification; the first request of an
 * agent session claiming its run).
 */
import { tryParseJson } from "@hopscope/shared/json/parse";
import { isRecord } from "@hopscope/shared/trace/json-text";
import { jsonMembers, type JsonMember } from "./json-members";
import { utf8Text } from "@hopscope/nodekit/utf8-text";
import type { ByteRange } from "../link/exchange-record";

/** Members left as bytes until read. */
const DEFERRED = "tools";
/** Smaller bodies are parsed whole: finding the members pays only when the deferred ones are big. */
const SPLIT_FROM = 16 * 1024;

export interface RequestJson {
  /** The body, less its tools when they were deferred (undefined when it is not JSON). */
  readonly json: unknown;
  /** How many tools the body offers (counted from the bytes when deferred). */
  readonly toolCount: number;
  /** Where the deferred tools are in the body's bytes, when they are an array (null when parsed whole). */
  readonly toolsAt: ByteRange | null;
  /** The body whole, its tools parsed (once) on the first call. */
  whole(): unknown;
}

/** The body parsed whole. */
function parsedWhole(json: unknown): RequestJson {
  const toolCount = isRecord(json) && Array.isArray(json.tools) ? json.tools.length : 0;
  return { json, toolCount, toolsAt: null, whole: () => json };
}

/**
 * Reads a request body: `bytes` its UTF-8 bytes when they are at hand (a big body kept undecoded), else
 * `text`. A body whose structure is broken is parsed whole (and found not to be JSON).
 */
export function readRequestJson(bytes: Buffer | null, text: () => string | null): RequestJson {
  if (!bytes || bytes.length < SPLIT_FROM) return parsedWhole(tryParseJson(text()));
  const members = jsonMembers(bytes);
  const deferred = members?.find((m) => m.key === DEFERRED);
  if (!members || !deferred) return parsedWhole(tryParseJson(text()));
  const head: Record<string, unknown> = {};
  for (const m of members) {
    if (m.key === DEFERRED) continue;
    const value = memberValue(bytes, m);
    // A member that is not JSON makes the body not JSON: JSON.parse of the whole would have said so.
    if (value === undefined) return parsedWhole(undefined);
    define(head, m.key, value);
  }
  let whole: Record<string, unknown> | null = null;
  const array = bytes[deferred.start] === 0x5b;
  return {
    json: head,
    toolCount: array ? deferred.items : 0,
    toolsAt: array ? { start: deferred.start, end: deferred.end } : null,
    whole() {
      if (whole) return whole;
      whole = {};
      for (const m of members) define(whole, m.key, m.key === DEFERRED ? toolsValue(bytes, m) : head[m.key]);
      return whole;
    },
  };
}

/** Tool lists parsed lately, frozen: an agent sends the same tools, byte for byte, with every request of a session. */
const recentTools: { bytes: Buffer; value: unknown }[] = [];
const RECENT_TOOLS = 8;

/** The deferred tools parsed, or the same list's parse when these bytes were seen lately (compared whole). */
function toolsValue(bytes: Buffer, m: JsonMember): unknown {
  const raw = bytes.subarray(m.start, m.end);
  const seen = recentTools.findIndex((t) => t.bytes.equals(raw));
  if (seen >= 0) {
    const [hit] = recentTools.splice(seen, 1);
    recentTools.unshift(hit!);
    return hit!.value;
  }
  const value = deepFreeze(memberValue(bytes, m));
  recentTools.unshift({ bytes: Buffer.from(raw), value });
  if (recentTools.length > RECENT_TOOLS) recentTools.pop();
  return value;
}

/** Shared between exchanges, so read-only: a reader that wrote to it would throw, not change another's. */
function deepFreeze<T>(v: T): T {
  if (typeof v !== "object" || v === null || Object.isFrozen(v)) return v;
  for (const child of Object.values(v)) deepFreeze(child);
  return Object.freeze(v);
}

function memberValue(bytes: Buffer, m: JsonMember): unknown {
  return tryParseJson(utf8Text(bytes, m.start, m.end));
}

/** As JSON.parse sets a member: an own property, even one named `__proto__`. */
function define(to: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(to, key, { value, enumerable: true, writable: true, configurable: true });
}
