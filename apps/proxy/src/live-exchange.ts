/**
 * One exchange in flight on a tap, as the forwarding thread sees it: bytes (bodies up to the size cap,
 * chunks kept as they arrived, never joined here), timings, and what the recorder announced about it.
 * Passive: the tap fills it through TapRecorder; the Recorder, on the recording thread, decides what it is.
 */
import type { Chunk, Exchange, ExchangeState, ExchangeSummary, Tap } from "@hopscope/shared/trace/schemas";
import { BodyCollector, toBody } from "./store/body";
import { getHeader } from "./tap/hop-headers";
import { redactHeaders } from "./tap/redact";

export interface BeginInit {
  tap: Tap;
  method: string;
  /** Path and query as the client sent them. */
  url: string;
  upstream: string;
  /** Request headers as received (before redaction, after the tap's own additions). */
  requestHeaders: [string, string][];
  /** The client connection it came on (remote address:port of the client socket), e.g. for MCP sessions. */
  connection?: string | null;
}

export class LiveExchange {
  readonly startPerf = performance.now();
  /** Epoch form of startPerf (same instant), so chunk times add up: start + chunk.t = arrival. */
  readonly start = performance.timeOrigin + this.startPerf;
  readonly requestBody: BodyCollector;
  readonly responseBody: BodyCollector;
  /** Each response chunk as received (the live feed decodes its text only if a client reads it). */
  readonly chunkBytes: Buffer[] = [];
  readonly chunks: Chunk[] = [];
  status: number | null = null;
  state: ExchangeState = "pending";
  error: string | null = null;
  requestEnd: number | null = null;
  firstByte: number | null = null;
  end: number | null = null;
  responseHeaders: [string, string][] = [];
  requestSent = false;
  /** The `exchange.started` frame as the recorder announced it (trace, seq, classification); null before. */
  announcedJson: string | null = null;
  private announcedCache: ExchangeSummary | null = null;

  constructor(
    readonly id: number,
    readonly init: BeginInit,
    maxBodyBytes: number,
    /** False when the recorder was too far behind at the start: forwarded, not recorded. */
    readonly recorded: boolean,
  ) {
    this.requestBody = new BodyCollector(maxBodyBytes);
    this.responseBody = new BodyCollector(maxBodyBytes);
  }

  get finished(): boolean {
    return this.end !== null;
  }

  /** The summary as the API lists exchanges in flight (once announced). */
  summary(): ExchangeSummary | null {
    if (this.announcedJson === null) return null;
    // Parsed only when the API lists exchanges in flight (rare next to the exchanges that pass).
    const a = (this.announcedCache ??= (JSON.parse(this.announcedJson) as { exchange: ExchangeSummary }).exchange);
    return {
      ...a,
      status: this.status,
      state: this.state,
      error: this.error,
      timings: { start: a.timings.start, requestEnd: this.requestEnd, firstByte: this.firstByte, end: this.end },
      requestSize: this.requestBody.size,
      responseSize: this.responseBody.size,
      chunkCount: this.chunks.length,
    };
  }

  /** The exchange so far, with what of its bodies has arrived (GET /api/exchanges/:id while in flight). */
  snapshot(): Exchange | null {
    const summary = this.summary();
    if (!summary) return null;
    const contentType = (h: [string, string][]) => getHeader(h, "content-type") ?? null;
    return {
      ...summary,
      requestHeaders: redactHeaders(this.init.requestHeaders),
      requestBody: this.requestBody.size > 0 ? toBody(this.requestBody.finish(contentType(this.init.requestHeaders))) : null,
      responseHeaders: redactHeaders(this.responseHeaders),
      responseBody: this.status !== null ? toBody(this.responseBody.finish(contentType(this.responseHeaders))) : null,
      chunks: [...this.chunks],
    };
  }
}
