/**
 * One exchange of a replay as the live feed and the store see it at each step: announced with the
 * request-side data only (like a tap announces a request), then streaming chunk by chunk, then complete
 * with everything it had when it was recorded (status, headers, bodies, classification).
 */
import type { Body, Chunk, Exchange, ExchangeSummary } from "@hopscope/shared/trace/schemas";
import { utf8BodyText, classifyExchange } from "@hopscope/shared/trace/classify";
import { recordOfExchange, summaryOf, type ExchangeRecord } from "../../link/exchange-record";

/** Chunk text goes on the live feed only below this size, as for recorded exchanges. */
const MAX_CHUNK_TEXT = 64 * 1024;

const utf8 = new TextDecoder("utf-8", { fatal: true });

export class ReplayedExchange {
  /** Chunks sent so far while in flight; null before it starts and after it completes. */
  private sent: number | null = null;
  private responseBytes: Buffer | null = null;
  private request: ExchangeSummary | null = null;

  constructor(readonly exchange: Exchange) {}

  get id(): number {
    return this.exchange.id;
  }

  /** The summary `exchange.started` carries: the request only, classified from the request alone. */
  started(): ExchangeSummary {
    this.sent = 0;
    return this.requestSummary();
  }

  private requestSummary(): ExchangeSummary {
    const ex = this.exchange;
    this.request ??= {
      ...summaryOf(ex),
      status: null,
      state: "pending",
      error: null,
      timings: { ...ex.timings, firstByte: null, end: null },
      responseSize: 0,
      chunkCount: 0,
      classification: classifyExchange({
        tap: ex.tap,
        method: ex.method,
        url: ex.url,
        status: null,
        requestText: utf8BodyText(ex.requestBody),
        responseText: null,
      }),
    };
    return this.request;
  }

  /** Marks chunk `index` as sent and returns it with its text (when it is UTF-8, small, and was kept). */
  chunk(index: number): { chunk: Chunk; text?: string } {
    const chunk = this.exchange.chunks[index];
    if (!chunk) throw new Error(`hopscope bug: exchange ${this.id} has no chunk ${index}`);
    this.sent = index + 1;
    const text = this.chunkText(chunk);
    return text === undefined ? { chunk } : { chunk, text };
  }

  /** The summary `exchange.completed` carries: the recorded one, with the replay's ids and timings. */
  completed(): ExchangeSummary {
    this.sent = null;
    return summaryOf(this.exchange);
  }

  /** While started and not completed: the summary as the API lists exchanges in flight. */
  inFlight(): ExchangeSummary | null {
    if (this.sent === null) return null;
    const base = this.requestSummary();
    if (this.sent === 0) return base;
    const ex = this.exchange;
    const chunks = ex.chunks.slice(0, this.sent);
    return {
      ...base,
      status: ex.status,
      state: "streaming",
      timings: { ...base.timings, firstByte: ex.timings.firstByte },
      responseSize: chunks.reduce((n, c) => n + c.size, 0),
      chunkCount: chunks.length,
    };
  }

  /**
   * While started and not completed: the exchange whole as far as it has played — the request, and the
   * response's headers and the bytes of the chunks sent so far — as a tap serves an exchange in flight.
   */
  inFlightExchange(): Exchange | null {
    const summary = this.inFlight();
    if (!summary || this.sent === null) return null;
    const ex = this.exchange;
    const chunks = ex.chunks.slice(0, this.sent);
    const answered = this.sent > 0;
    return {
      ...summary,
      requestHeaders: ex.requestHeaders,
      requestBody: ex.requestBody,
      responseHeaders: answered ? ex.responseHeaders : [],
      responseBody: answered ? this.bodyUpTo(chunks.reduce((end, c) => Math.max(end, c.offset + c.size), 0)) : null,
      chunks,
    };
  }

  /** The response body's first `end` bytes (as far as it was kept), as UTF-8 text when they are. */
  private bodyUpTo(end: number): Body | null {
    const body = this.exchange.responseBody;
    if (!body) return null;
    const bytes = this.bytes(body).subarray(0, end);
    const base = {
      size: bytes.length,
      storedSize: bytes.length,
      truncated: false,
      ...(body.contentType === undefined ? {} : { contentType: body.contentType }),
    };
    try {
      return { ...base, encoding: "utf8", data: utf8.decode(bytes) };
    } catch (err) {
      // Binary, or a character split at the last chunk sent: the bytes as they are.
      if (err instanceof TypeError) return { ...base, encoding: "base64", data: bytes.toString("base64") };
      throw err;
    }
  }

  private bytes(body: Body): Buffer {
    this.responseBytes ??= Buffer.from(body.data, body.encoding === "utf8" ? "utf8" : "base64");
    return this.responseBytes;
  }

  /** What the store keeps once the exchange completes (as an import would write it). */
  record(title: string, groupedBy: ExchangeRecord["groupedBy"]): ExchangeRecord {
    return recordOfExchange(this.exchange, { title, groupedBy });
  }

  private chunkText(chunk: Chunk): string | undefined {
    const body = this.exchange.responseBody;
    if (!body || chunk.size > MAX_CHUNK_TEXT) return undefined;
    const bytes = this.bytes(body);
    // A truncated body may not hold this chunk (whole or in part): then there is no text to show.
    if (chunk.offset + chunk.size > bytes.length) return undefined;
    try {
      return utf8.decode(bytes.subarray(chunk.offset, chunk.offset + chunk.size));
    } catch (err) {
      // Not UTF-8 on its own (binary, or a character split across chunks): the feed sends no text.
      if (err instanceof TypeError) return undefined;
      throw err;
    }
  }
}
