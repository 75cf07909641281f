/**
 * One exchange as the recording thread assembles it from the tap's events: redacted headers and URL,
 * the bodies' kept bytes (chunks as they arrived, joined only when the exchange ends), chunk times, and
 * the trace the recorder put it in. Data only: the Recorder decides what it means.
 */
import type { Chunk, Classification, Exchange, ExchangeState, ExchangeSummary } from "@hopscope/shared/trace/schemas";
import type { GroupedBy } from "@hopscope/shared/trace/group";
import { classifyExchange, type ClassifyInput } from "@hopscope/shared/trace/classify";
import { headerValue, isRecord } from "@hopscope/shared/trace/json-text";
import { finalEventArrived } from "@hopscope/shared/trace/stream-end";
import { findResponse } from "@hopscope/shared/trace/classify-mcp";
import { BodyCollector, keptBody, textOf, toBody, type StoredBody } from "../link/stored-body";
import { readRequestJson, type RequestJson } from "./request-json";
import { redactUrl } from "@hopscope/shared/trace/redact";
import { fromHeaderBlock, redactHeaderBlock } from "@hopscope/shared/trace/header-block";
import type { TapEvent } from "../link/protocol";
import type { ByteRange } from "../link/exchange-record";

type Begin = Extract<TapEvent, { k: "begin" }>;

export class ExchangeDraft {
  /** Redacted, as a header block (shared/trace/header-block.ts): stored as such, split only for the API. */
  readonly requestHeaders: string;
  readonly url: string;
  traceId: string | null = null;
  seq = 0;
  groupedBy: GroupedBy = "single";
  status: number | null = null;
  state: ExchangeState = "pending";
  error: string | null = null;
  requestEnd: number | null = null;
  firstByte: number | null = null;
  end: number | null = null;
  responseHeaders = "";
  readonly chunks: Chunk[] = [];
  /** The request body as stored, once the request is complete (or cut off). */
  request: StoredBody | null = null;
  requestSize = 0;
  requestDone = false;
  private readonly response: BodyCollector;
  private json: RequestJson | null = null;
  private text: string | null | undefined = undefined;
  private requestOnly: Classification | null = null;

  constructor(
    readonly begin: Begin,
    /** The exchange id the recorder gave it. */
    readonly id: number,
    maxBodyBytes: number,
  ) {
    this.requestHeaders = redactHeaderBlock(begin.headers);
    this.url = redactUrl(begin.url);
    this.response = new BodyCollector(maxBodyBytes);
  }

  setRequest(parts: Buffer[], size: number, at: number | null): void {
    this.requestDone = true;
    this.requestEnd = at;
    this.requestSize = size;
    if (size === 0) return;
    const bytes = parts.length === 1 ? (parts[0] as Buffer) : Buffer.concat(parts);
    this.request = keptBody(bytes, size, headerValue(this.begin.headers, "content-type") ?? null);
  }

  addChunk(t: number, size: number, kept: Buffer | null): Chunk {
    // Same sum as the stored start + chunk t, so the two agree to the last bit.
    if (this.firstByte === null) this.firstByte = this.begin.start + t;
    const chunk: Chunk = { index: this.chunks.length, t, offset: this.response.size, size };
    this.chunks.push(chunk);
    this.response.add(kept ?? EMPTY, size);
    return chunk;
  }

  /**
   * The tap's end of the exchange. An answer whose end arrived is complete however the client left: a
   * client that closes the connection right after the final event of a stream (stream-end.ts) or the
   * JSON-RPC response of an MCP stream did not cut anything. The bytes stay as recorded.
   */
  ended(state: ExchangeState, error: string | null, at: number): void {
    this.state = state;
    this.error = error;
    this.end = at;
    if (state !== "aborted" || this.status === null) return;
    const text = textOf(this.responseBody());
    const whole =
      this.begin.tap === "mcp"
        ? isRecord(findResponse(text, headerValue(this.responseHeaders, "content-type"), undefined))
        : finalEventArrived(text, this.streamed());
    if (!whole) return;
    this.state = "complete";
    this.error = null;
  }

  /** Whether the client asked for a stream (a model chat's `stream`; anything else may stream). */
  private streamed(): boolean {
    const c = this.requestClassification();
    return c.kind !== "model.chat" || c.stream;
  }

  /**
   * The complete request body parsed as JSON (undefined when it is not JSON), parsed once; a big body's
   * tools are left out (request-json.ts): `requestTools` counts them, `wholeRequestJson` has them.
   */
  requestJson(): unknown {
    return this.readRequest().json;
  }

  /** The request body's text, decoded once (a big body is kept as its bytes). */
  private requestText(): string | null {
    if (this.text === undefined && this.requestDone) this.text = textOf(this.request);
    return this.text ?? textOf(this.request);
  }

  /** The request body's UTF-8 bytes when it is kept undecoded (a big body), else null. */
  private requestBytes(): Buffer | null {
    const r = this.request;
    return r && r.encoding === "utf8" && typeof r.data !== "string" ? r.data : null;
  }

  wholeRequestJson(): unknown {
    return this.readRequest().whole();
  }

  /** Where a big body's tool list is in its bytes, as its reader found it (null for any other body). */
  requestTools(): ByteRange | null {
    return this.readRequest().toolsAt;
  }

  private readRequest(): RequestJson {
    const r = this.request;
    this.json ??= readRequestJson(this.requestBytes(), () => textOf(r));
    return this.json;
  }

  /** Classified from the request alone (what `exchange.started` says: "chat, 5 messages, 5 tools"). */
  requestClassification(): Classification {
    this.requestOnly ??= this.classify(null, null);
    return this.requestOnly;
  }

  responseBody(): StoredBody | null {
    return this.status !== null && (this.response.size > 0 || this.chunks.length > 0)
      ? this.response.finish(headerValue(this.responseHeaders, "content-type") ?? null)
      : null;
  }

  classify(status: number | null, responseBody: StoredBody | null): Classification {
    const { tap, method, url } = this.begin;
    // A model request kept as its bytes is classified from its parse and its bytes, never decoded whole.
    const bytes = tap === "model" && this.requestDone ? this.requestBytes() : null;
    const input: ClassifyInput = {
      tap,
      method,
      url,
      status,
      requestText: bytes ? null : this.requestText(),
      responseText: textOf(responseBody),
      responseHeaders: status === null ? "" : this.responseHeaders,
    };
    // Parsed once for grouping and every classification of the exchange (set, not spread: twice per exchange).
    // The classification reads the whole request (its line hashes the body and the tools offered).
    if (bytes) input.requestBytes = bytes;
    if (this.requestDone) input.requestJson = this.wholeRequestJson();
    // With the answer: the request's own part as classified when it ended, not read again.
    if (this.requestDone && status !== null) input.requestPart = this.requestClassification();
    return classifyExchange(input);
  }

  summary(classification: Classification): ExchangeSummary {
    const { tap, method, upstream, start } = this.begin;
    return {
      id: this.id,
      traceId: this.traceId ?? "",
      seq: this.seq,
      tap,
      method,
      url: this.url,
      upstream,
      status: this.status,
      state: this.state,
      error: this.error,
      timings: { start, requestEnd: this.requestEnd, firstByte: this.firstByte, end: this.end },
      requestSize: this.requestSize,
      responseSize: this.response.size,
      chunkCount: this.chunks.length,
      classification,
    };
  }

  /** The exchange so far, with what of its bodies has arrived (the API, while it is in flight). */
  snapshot(classification: Classification): Exchange {
    const response =
      this.status !== null ? this.response.finish(headerValue(this.responseHeaders, "content-type") ?? null) : null;
    return {
      ...this.summary(classification),
      requestHeaders: fromHeaderBlock(this.requestHeaders),
      requestBody: this.request ? toBody(this.request) : null,
      responseHeaders: fromHeaderBlock(this.responseHeaders),
      responseBody: response ? toBody(response) : null,
      chunks: [...this.chunks],
    };
  }
}

const EMPTY = Buffer.alloc(0);
