/**
 * Trace bundles for the export tests, built to the schemas of @hopscope/shared/trace/schemas and shaped
 * like the article's Part 4 trace (part4-fixture.ts) or its failures (fault-fixture.ts). Hand-built so every field
 * is known to the test; bodies, headers and chunk offsets are computed from the bytes so sizes are consistent.
 */
import { Buffer } from "node:buffer";
import type { Body, Chunk, Classification, Exchange, HeaderList, Link, Tap } from "@hopscope/shared/trace/schemas";
import type { TraceBundle } from "@hopscope/shared/trace/bundle";

export const TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736";
/** The span id the agent tap put in the traceparent it started for the /agent request. */
export const TAP_SPAN_ID = "00f067aa0ba902b7";
/** The span id the host sent on every call it made while answering the question. */
export const HOST_SPAN_ID = "b7ad6b7169203331";
const T0 = Date.UTC(2026, 10, 29, 20, 15, 3, 120) + 0.25;

export function utf8Body(text: string, contentType?: string): Body {
  const size = Buffer.byteLength(text, "utf8");
  return {
    encoding: "utf8",
    data: text,
    size,
    storedSize: size,
    truncated: false,
    ...(contentType ? { contentType } : {}),
  };
}

export function binaryBody(bytes: Uint8Array, contentType?: string): Body {
  return {
    encoding: "base64",
    data: Buffer.from(bytes).toString("base64"),
    size: bytes.length,
    storedSize: bytes.length,
    truncated: false,
    ...(contentType ? { contentType } : {}),
  };
}

export const bareMeta = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": {},
};
export const userMessage = { role: "user", content: "Add buy milk to my notes" };

interface Spec {
  tap: Tap;
  method?: string;
  url: string;
  upstream: string;
  status: number | null;
  state?: Exchange["state"];
  error?: string | null;
  /** Offsets from T0 in ms: start, requestEnd, firstByte, end. */
  at: [number, number | null, number | null, number | null];
  requestHeaders: HeaderList;
  requestBody: Body | null;
  responseHeaders: HeaderList;
  responseBody: Body | null;
  /** Byte lengths of the response chunks in arrival order, with arrival offsets from the exchange start. */
  chunks?: [size: number, t: number][];
  classification: Classification;
}

export function exchange(traceId: string, id: number, seq: number, s: Spec): Exchange {
  const [start, requestEnd, firstByte, end] = s.at;
  let offset = 0;
  const chunks: Chunk[] = (
    s.chunks ?? (s.responseBody ? [[s.responseBody.size, (firstByte ?? start) - start]] : [])
  ).map(([size, t], index) => {
    const chunk = { index, t, offset, size };
    offset += size;
    return chunk;
  });
  return {
    id,
    traceId,
    seq,
    tap: s.tap,
    method: s.method ?? "POST",
    url: s.url,
    upstream: s.upstream,
    status: s.status,
    state: s.state ?? "complete",
    error: s.error ?? null,
    timings: {
      start: T0 + start,
      requestEnd: requestEnd === null ? null : T0 + requestEnd,
      firstByte: firstByte === null ? null : T0 + firstByte,
      end: end === null ? null : T0 + end,
    },
    requestSize: s.requestBody?.size ?? 0,
    responseSize: s.responseBody?.size ?? 0,
    chunkCount: chunks.length,
    classification: s.classification,
    requestHeaders: s.requestHeaders,
    requestBody: s.requestBody,
    responseHeaders: s.responseHeaders,
    responseBody: s.responseBody,
    chunks,
  };
}

/** `traceparent: false` for traffic from a bare client that sends none. */
export function jsonRequestHeaders(host: string, body: Body, extra: HeaderList = [], traceparent = true): HeaderList {
  return [
    ["host", host],
    ["content-type", "application/json"],
    ["content-length", String(body.size)],
    ...extra,
    ...(traceparent ? ([["traceparent", `00-${TRACE_ID}-${HOST_SPAN_ID}-01`]] as HeaderList) : []),
  ];
}

export function jsonResponseHeaders(body: Body, extra: HeaderList = []): HeaderList {
  return [
    ["Content-Type", "application/json; charset=utf-8"],
    ...extra,
    ["Date", "Sun, 29 Nov 2026 20:15:03 GMT"],
    ["Content-Length", String(body.size)],
  ];
}

export const MODEL = "http://127.0.0.1:11435";
export const MCP = "http://127.0.0.1:8080";
export const mcpHeaders = (method: string, name?: string): HeaderList => [
  ["accept", "application/json, text/event-stream"],
  ["mcp-protocol-version", "2026-07-28"],
  ["mcp-method", method],
  ...(name ? ([["mcp-name", name]] as HeaderList) : []),
];

export function bundleFrom(traceId: string, name: string, exchanges: Exchange[], links: Link[]): TraceBundle {
  const errorCount = exchanges.filter(
    (e) => e.state === "error" || e.state === "aborted" || (e.status ?? 0) >= 400,
  ).length;
  return {
    format: "hopscope-trace",
    version: 1,
    exportedAt: "2026-11-29T20:20:00.000Z",
    generator: { name: "hopscope", version: "0.1.0" },
    trace: {
      id: traceId,
      name,
      source: "live",
      createdAt: exchanges[0]?.timings.start ?? T0,
      updatedAt: Math.max(...exchanges.map((e) => e.timings.end ?? e.timings.start)),
      exchangeCount: exchanges.length,
      errorCount,
      groupedBy: "traceparent",
      simulated: true,
      savedAs: null,
      exchanges: exchanges.map(
        ({ requestHeaders: _rh, requestBody: _rb, responseHeaders: _sh, responseBody: _sb, chunks: _c, ...summary }) =>
          summary,
      ),
      links,
    },
    exchanges,
  };
}
