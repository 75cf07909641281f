/**
 * HAR 1.2 export and import (opens in a browser's dev tools, and imports HAR from them).
 *
 * Mapping (exchange → entry):
 * - `request.url` is absolute: the tap's upstream + the path and query the client sent. `httpVersion` is
 *   "HTTP/1.1" (the taps speak HTTP/1.1). Cookies stay in the (redacted) headers; `cookies` is empty.
 * - Request bodies: HAR has no `encoding` for `postData`, so a body that is not UTF-8 is written as its
 *   base64 text with the custom field `postData._encoding: "base64"`; `importHar` honours it.
 *   Response bodies use HAR's own `content.encoding: "base64"`.
 * - A status of `null` (no response: upstream down before the tap answered, or still pending) is HAR's 0.
 * - `timings`: send = start → request end, wait = request end → first byte, receive = first byte → end.
 * - `_hopscope` on each entry keeps what HAR has no field for (tap, upstream, state, error, exact
 *   timings, chunks, classification, body metadata); `_hopscope` on the page keeps the trace (name,
 *   links, …). Importing our own HAR therefore restores the trace exactly; tools ignore these fields.
 * - `log._notesChanges`: the notes file's changes during the trace (before/after, cause), as a hopscope
 *   file's `notes`; read back on import (of any HAR that has them).
 *
 * Import of a foreign HAR (no `_hopscope`): all entries become one trace, in start order, tapped by
 * `guessTap`, classified and linked by the recorder's own rules (@hopscope/shared/trace/classify, link).
 */
import { STATUS_CODES } from "node:http";
import type { TraceBundle } from "@hopscope/shared/trace/bundle";
import { redactBundle } from "@hopscope/shared/trace/redact";
import type { Body, Exchange } from "@hopscope/shared/trace/schemas";
import { absoluteUrl } from "./absolute-url";
import { GENERATOR } from "./generator";
import type { Har, HarEntry, HarEntryExt, HarPage, HarPageExt } from "./har-schema";
import { harToBundle } from "./har-import";
import { headerValue } from "@hopscope/shared/trace/json-text";

function headerOf(ex: Exchange, name: string, side: "request" | "response"): string | undefined {
  return headerValue(side === "request" ? ex.requestHeaders : ex.responseHeaders, name);
}

function mimeType(body: Body | null, ex: Exchange, side: "request" | "response"): string {
  return body?.contentType ?? headerOf(ex, "content-type", side) ?? "";
}

function harTimings(ex: Exchange): { send: number; wait: number; receive: number } {
  const t = ex.timings;
  const start = t.start;
  const requestEnd = Math.max(start, t.requestEnd ?? start);
  const firstByte = Math.max(requestEnd, t.firstByte ?? t.end ?? requestEnd);
  const end = Math.max(firstByte, t.end ?? firstByte);
  return { send: requestEnd - start, wait: firstByte - requestEnd, receive: end - firstByte };
}

function withoutData(body: Body | null): Omit<Body, "data"> | null {
  if (!body) return null;
  const { data: _data, ...meta } = body;
  return meta;
}

const truncatedNote = (b: Body) => `truncated: only the first ${b.storedSize} of ${b.size} bytes were recorded`;

/** The request body as HAR's `postData`; HAR has no encoding there, so base64 is marked `_encoding`. */
function postDataOf(ex: Exchange, body: Body) {
  return {
    mimeType: mimeType(body, ex, "request"),
    text: body.data,
    ...(body.encoding === "base64" ? { _encoding: "base64" } : {}),
    ...(body.truncated ? { comment: truncatedNote(body) } : {}),
  };
}

/** The response body as HAR's `content` (its own `encoding: "base64"`); no body: size 0 and no text. */
function contentOf(ex: Exchange, body: Body | null) {
  return {
    size: body?.size ?? 0,
    mimeType: mimeType(body, ex, "response"),
    ...(body ? { text: body.data } : {}),
    ...(body?.encoding === "base64" ? { encoding: "base64" } : {}),
    ...(body?.truncated ? { comment: truncatedNote(body) } : {}),
  };
}

function toEntry(ex: Exchange, pageref: string): HarEntry & { _hopscope: HarEntryExt } {
  const url = absoluteUrl(ex);
  const timings = harTimings(ex);
  const { requestHeaders: _rh, responseHeaders: _sh, requestBody, responseBody, ...rest } = ex;
  return {
    pageref,
    startedDateTime: new Date(ex.timings.start).toISOString(),
    time: timings.send + timings.wait + timings.receive,
    request: {
      method: ex.method,
      url,
      httpVersion: "HTTP/1.1",
      cookies: [],
      headers: ex.requestHeaders.map(([name, value]) => ({ name, value })),
      queryString: [...new URL(url).searchParams].map(([name, value]) => ({ name, value })),
      ...(requestBody ? { postData: postDataOf(ex, requestBody) } : {}),
      headersSize: -1,
      bodySize: requestBody?.size ?? 0,
    },
    response: {
      status: ex.status ?? 0,
      statusText: ex.status === null ? "" : (STATUS_CODES[ex.status] ?? ""),
      httpVersion: "HTTP/1.1",
      cookies: [],
      headers: ex.responseHeaders.map(([name, value]) => ({ name, value })),
      content: contentOf(ex, responseBody),
      redirectURL: headerOf(ex, "location", "response") ?? "",
      headersSize: -1,
      bodySize: ex.status === null ? -1 : (responseBody?.size ?? 0),
      ...(ex.error ? { _error: ex.error } : {}),
    },
    cache: {},
    timings: { blocked: -1, dns: -1, connect: -1, ssl: -1, ...timings },
    _hopscope: {
      exchange: { ...rest, requestBody: withoutData(requestBody), responseBody: withoutData(responseBody) },
    },
  };
}

/** The trace as a HAR 1.2 log: one page for the trace, one entry per exchange in trace order. */
export function exportHar(bundle: TraceBundle): string {
  const { trace } = bundle;
  const { exchanges: _summaries, ...summary } = trace;
  const page: HarPage & { _hopscope: HarPageExt } = {
    startedDateTime: new Date(trace.createdAt).toISOString(),
    id: trace.id,
    title: trace.name,
    pageTimings: { onContentLoad: -1, onLoad: -1 },
    _hopscope: { version: 1, exportedAt: bundle.exportedAt, generator: bundle.generator, trace: summary },
  };
  const har: Har = {
    log: {
      version: "1.2",
      creator: { name: GENERATOR.name, version: GENERATOR.version },
      pages: [page],
      entries: bundle.exchanges.map((ex) => toEntry(ex, trace.id)),
      comment: `hopscope trace "${trace.name}": ${bundle.exchanges.length} exchanges${bundle.notes?.length ? `, ${bundle.notes.length} notes-file change${bundle.notes.length === 1 ? "" : "s"} in _notesChanges` : ""}`,
      // HAR has no field for a file changing on disk; `_`-prefixed custom fields are the spec's way in.
      ...(bundle.notes?.length ? { _notesChanges: bundle.notes } : {}),
    },
  };
  return `${JSON.stringify(har, null, 2)}\n`;
}

/**
 * Reads a HAR file (ours or a browser's); throws `TraceImportError` naming what is wrong. A browser's HAR
 * holds Authorization, Cookie, Set-Cookie and `?api_key=` in clear: redacted here, before anything stores it.
 */
export function importHar(text: string): TraceBundle {
  return redactBundle(harToBundle(text));
}
