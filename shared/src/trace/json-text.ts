/** Small helpers to read recorded exchanges without throwing: recorded bytes are untrusted. */
import { tryParseJson } from "../json/parse";
import { blockHeaderValue } from "./header-block";
import type { Classification } from "./schemas";

/** What a classifier reads of a request: the body as the caller parsed it already, else its text parsed here. */
export interface RequestInput {
  requestText: string | null;
  /** The request body as tryParseJson(requestText) gives it, when the caller has it (parsed once). */
  requestJson?: unknown;
  /**
   * What this exchange's request alone classified as, when the caller kept it (classified when the request
   * ended): the answer's classification reuses its request part rather than reading the whole body again.
   */
  requestPart?: Classification;
  /**
   * The body's UTF-8 bytes, when the caller kept a big body undecoded and gives no `requestText` for it: what
   * needs the body as sent (a model request's line) reads them instead.
   */
  requestBytes?: Uint8Array;
}

/** The request body as JSON: the caller's parse when it gave one, else the text parsed here (undefined when not JSON). */
export function parsedRequestJson(input: RequestInput): unknown {
  return "requestJson" in input ? input.requestJson : tryParseJson(input.requestText);
}

export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** Path of a URL without its query: "/api/chat?x=1" → "/api/chat". */
export function pathOf(url: string): string {
  const q = url.search(/[?#]/);
  return q === -1 ? url : url.slice(0, q);
}

/** Header value by case-insensitive name (first occurrence), from pairs or a header block. */
export function headerValue(
  headers: ReadonlyArray<readonly [string, string]> | string | undefined,
  name: string,
): string | undefined {
  if (headers === undefined) return undefined;
  if (typeof headers === "string") return blockHeaderValue(headers, name);
  const lower = name.toLowerCase();
  for (const [k, v] of headers) if (k.toLowerCase() === lower) return v;
  return undefined;
}

/**
 * Texts copied into a classification (content, results, replies) are clipped: a classification travels
 * in every summary and live frame, while the whole text stays in the exchange's body.
 */
export const MAX_SUMMARY_TEXT = 4000;

export function clipText(s: string, max = MAX_SUMMARY_TEXT): string {
  return s.length <= max ? s : ownCopy(`${s.slice(0, max)}… [${s.length - max} more characters in the body]`);
}

/**
 * The same text in memory of its own. A JavaScript engine may keep a cut of a string as a view of the whole
 * (V8 does, past a dozen characters), so a short text cut from a big one for a classification would keep the
 * big one alive as long as the classification is: an agent's whole system prompt per exchange, in every frame
 * the recorder keeps for the live feed. Prefixing then cutting makes the engine write the text out anew.
 */
export function ownCopy(s: string): string {
  return ` ${s}`.slice(1);
}
