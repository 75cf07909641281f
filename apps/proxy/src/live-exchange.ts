/**
 * One exchange in flight on a tap: its bytes as they pass (bodies up to the size cap, chunks with arrival
 * times), its trace, and what it announces. When it ends it is classified and queued for SQLite.
 */
import type { Chunk, Exchange, ExchangeState, ExchangeSummary } from "@hopscope/shared/trace/schemas";
import { classifyExchange } from "@hopscope/shared/trace/classify";
import type { GroupResult } from "@hopscope/shared/trace/group";
import { isRecord, pathOf, tryParseJson } from "@hopscope/shared/trace/json-text";
import { toolMessagesOf } from "@hopscope/shared/trace/link";
import { parseTraceparent, traceparentFromJsonRpc } from "@hopscope/shared/trace/traceparent";
import { BodyCollector, textOf, toBody, type StoredBody } from "./store/body";
import { getHeader } from "./tap/hop-headers";
import { redactHeaders, redactUrl } from "./tap/redact";
import type { BeginInit, Recorder } from "./recorder";
import { nowEpoch } from "./clock";

/** Chunk text is sent on the live feed only below this size (bigger chunks: fetch the exchange). */
const MAX_CHUNK_TEXT = 64 * 1024;

export class LiveExchange {
  readonly startPerf = performance.now();
  /** Epoch form of startPerf (same instant), so chunk times add up: start + chunk.t = arrival. */
  readonly start = performance.timeOrigin + this.startPerf;
  readonly requestBody: BodyCollector;
  readonly responseBody: BodyCollector;
  readonly requestHeaders: [string, string][];
  readonly url: string;
  traceId: string | null = null;
  seq = 0;
  status: number | null = null;
  state: ExchangeState = "pending";
  error: string | null = null;
  requestEnd: number | null = null;
  firstByte: number | null = null;
  end: number | null = null;
  responseHeaders: [string, string][] = [];
  readonly chunks: Chunk[] = [];
  private groupedBy: GroupResult["groupedBy"] = "single";
  private requestStored: StoredBody | null | undefined = undefined;
  /** The request body parsed as JSON (undefined: not JSON), once it is complete; parsed once, read thrice. */
  private requestJson: unknown = NOT_PARSED;
  private finished = false;

  constructor(
    private readonly recorder: Recorder,
    readonly id: number,
    readonly init: BeginInit,
  ) {
    this.requestBody = new BodyCollector(recorder.deps.maxBodyBytes);
    this.responseBody = new BodyCollector(recorder.deps.maxBodyBytes);
    this.requestHeaders = redactHeaders(init.requestHeaders);
    this.url = redactUrl(init.url);
  }

  /** How the exchange was grouped into its trace. */
  get grouping(): GroupResult["groupedBy"] {
    return this.groupedBy;
  }

  requestEnded(): void {
    if (this.requestEnd !== null) return;
    this.requestEnd = nowEpoch();
    this.assignTrace();
  }

  /** The request body as stored; final once the request has ended (then computed once). */
  private storedRequest(): StoredBody | null {
    if (this.requestStored !== undefined) return this.requestStored;
    const body = this.requestBody.size > 0 ? this.requestBody.finish(getHeader(this.init.requestHeaders, "content-type") ?? null) : null;
    if (this.requestEnd !== null || this.finished) this.requestStored = body;
    return body;
  }

  responseStarted(status: number, headers: [string, string][]): void {
    this.assignTrace();
    this.status = status;
    this.responseHeaders = redactHeaders(headers);
    this.state = "streaming";
  }

  /** A response chunk; `arrived` is its performance.now() arrival time (taken before it was forwarded). */
  responseChunk(chunk: Buffer, arrived = performance.now()): void {
    const t = arrived - this.startPerf;
    // Same sum as the stored start + chunk t, so the two agree to the last bit.
    if (this.firstByte === null) this.firstByte = this.start + t;
    const c: Chunk = { index: this.chunks.length, t, offset: this.responseBody.size, size: chunk.length };
    this.chunks.push(c);
    this.responseBody.add(chunk);
    const exchangeId = this.id;
    const traceId = this.traceId as string;
    // Decoded only if a live client reads it (the Buffer is immutable once received, so decoding later is exact).
    this.recorder.deps.announce({
      lazy: () => {
        const text = chunk.length <= MAX_CHUNK_TEXT ? decodeChunk(chunk) : undefined;
        return { type: "exchange.chunk", exchangeId, traceId, chunk: c, ...(text === undefined ? {} : { text }) };
      },
      size: 160 + (chunk.length <= MAX_CHUNK_TEXT ? chunk.length : 0),
    });
  }

  /** Ends the exchange (once): classifies it, announces it and queues it for SQLite. */
  finish(state: Exclude<ExchangeState, "pending" | "streaming">, error: string | null = null): void {
    if (this.finished) return;
    this.finished = true;
    this.assignTrace();
    this.state = state;
    this.error = error;
    this.end = nowEpoch();
    const requestBody = this.storedRequest();
    const responseBody =
      this.status !== null && (this.responseBody.size > 0 || this.chunks.length > 0)
        ? this.responseBody.finish(getHeader(this.responseHeaders, "content-type") ?? null)
        : null;
    const summary = this.summary(requestBody, responseBody);
    const c = summary.classification;
    if (c.kind === "model.chat" && c.toolCalls.length > 0 && this.traceId) {
      this.recorder.grouper.noteToolCalls(this.traceId, c.toolCalls.map((t) => t.name), Date.now());
    }
    const { store, announce } = this.recorder.deps;
    store.enqueue({
      summary,
      requestHeaders: this.requestHeaders,
      responseHeaders: this.responseHeaders,
      requestBody,
      responseBody,
      chunks: this.chunks,
      toolMessages: c.kind === "model.chat" ? toolMessagesOf(this.parsedRequest()) : null,
      simulated: c.kind === "model.chat" || c.kind === "model.other" ? (c.simulated ?? null) : null,
      ...titleOf(this, c, this.parsedRequest()),
      groupedBy: this.groupedBy,
    });
    this.recorder.done(this);
    announce({ lazy: () => ({ type: "exchange.completed", exchange: summary }), size: 1024 });
  }

  /** The complete request body parsed as JSON (undefined when it is not JSON or not complete yet). */
  private parsedRequest(): unknown {
    if (this.requestJson !== NOT_PARSED) return this.requestJson;
    const body = tryParseJson(textOf(this.storedRequest()));
    if (this.requestStored !== undefined) this.requestJson = body;
    return body;
  }

  /**
   * The exchange as a summary. Before it finishes, the classification comes from the request alone once
   * that is complete (so `exchange.started` already says "chat, 5 messages, 5 tools" or "tools/call append").
   */
  summary(requestBody: StoredBody | null = null, responseBody: StoredBody | null = null, classification?: ExchangeSummary["classification"]): ExchangeSummary {
    const status = this.status;
    const requestText = this.finished ? textOf(requestBody) : this.requestEnd !== null ? textOf(this.storedRequest()) : null;
    return {
      id: this.id,
      traceId: this.traceId ?? "",
      seq: this.seq,
      tap: this.init.tap,
      method: this.init.method,
      url: this.url,
      upstream: this.init.upstream,
      status,
      state: this.state,
      error: this.error,
      timings: { start: this.start, requestEnd: this.requestEnd, firstByte: this.firstByte, end: this.end },
      requestSize: this.requestBody.size,
      responseSize: this.responseBody.size,
      chunkCount: this.chunks.length,
      classification: classification ?? classifyExchange({
        tap: this.init.tap,
        method: this.init.method,
        url: this.init.url,
        status: this.finished ? status : null,
        requestText,
        responseText: this.finished ? textOf(responseBody) : null,
        responseHeaders: this.responseHeaders,
      }),
    };
  }

  /** The exchange so far, with what of its bodies has arrived (for the API while it is in flight). */
  snapshot(): Exchange {
    const stored = this.storedRequest();
    const req = stored ? toBody(stored) : null;
    const res = this.status !== null ? toBody(this.responseBody.finish(getHeader(this.responseHeaders, "content-type") ?? null)) : null;
    return { ...this.summary(), requestHeaders: this.requestHeaders, requestBody: req, responseHeaders: this.responseHeaders, responseBody: res, chunks: [...this.chunks] };
  }

  /** Groups the exchange into a trace (once), from what of the request has arrived, and announces it. */
  private assignTrace(): void {
    if (this.traceId !== null) return;
    const { grouper } = this.recorder;
    const now = Date.now();
    const header = parseTraceparent(getHeader(this.init.requestHeaders, "traceparent"));
    const body = this.parsedRequest();
    const path = pathOf(this.init.url);
    let result: GroupResult;
    if (this.init.tap === "model" && isRecord(body) && Array.isArray(body.messages) && (path === "/api/chat" || path === "/v1/chat/completions")) {
      result = grouper.assignModelChat(body.messages, now, header?.traceId);
    } else if (this.init.tap === "mcp") {
      const known = header ?? parseTraceparent(traceparentFromJsonRpc(body));
      const method = isRecord(body) && typeof body.method === "string" ? body.method : undefined;
      const tool = isRecord(body) && isRecord(body.params) && typeof body.params.name === "string" ? body.params.name : undefined;
      if (known) {
        if (method === "tools/call" && tool) grouper.consumeToolCall(known.traceId, tool);
        result = { traceId: known.traceId, groupedBy: "traceparent" };
      } else result = grouper.assignMcp(method, tool, now);
    } else result = header ? { traceId: header.traceId, groupedBy: "traceparent" } : { traceId: this.recorder.deps.newTraceId(), groupedBy: "single" };
    this.traceId = result.traceId;
    this.groupedBy = result.groupedBy;
    // "single" always means a freshly generated trace id: nothing of it can be stored yet.
    this.seq = this.recorder.nextSeq(result.traceId, result.groupedBy === "single");
    // The frame says what was known at this moment, even when it is built later (see LazyEvent).
    const at = { state: this.state, status: this.status, requestEnd: this.requestEnd, requestSize: this.requestBody.size };
    this.recorder.deps.announce({
      lazy: () => {
        const requestText = at.requestEnd === null ? null : textOf(this.storedRequest());
        const classification = classifyExchange({ tap: this.init.tap, method: this.init.method, url: this.init.url, status: null, requestText, responseText: null, responseHeaders: [] });
        return {
          type: "exchange.started",
          exchange: { ...this.summary(null, null, classification), state: at.state, status: at.status, error: null, requestSize: at.requestSize, responseSize: 0, chunkCount: 0, classification,
            timings: { start: this.start, requestEnd: at.requestEnd, firstByte: null, end: null } },
        };
      },
      size: 1024,
    });
  }
}

const utf8 = new TextDecoder("utf-8", { fatal: true });

function decodeChunk(chunk: Buffer): string | undefined {
  try {
    return utf8.decode(chunk);
  } catch (err) {
    // Not UTF-8 on its own (binary, or a character split across chunks): the feed sends no text.
    if (err instanceof TypeError) return undefined;
    throw err;
  }
}

const NOT_PARSED = Symbol("not parsed");

function titleOf(ex: LiveExchange, c: ExchangeSummary["classification"], body: unknown): { title: string; titleRank: number } {
  if (c.kind === "agent" && c.message) return { title: clip(c.message), titleRank: 2 };
  if (c.kind === "model.chat") {
    const messages = isRecord(body) && Array.isArray(body.messages) ? body.messages : [];
    const lastUser = [...messages].reverse().find((m) => isRecord(m) && m.role === "user" && typeof m.content === "string");
    if (isRecord(lastUser)) return { title: clip(String(lastUser.content)), titleRank: 1 };
  }
  if (c.kind === "mcp" && c.method) return { title: c.toolName ? `${c.method} ${c.toolName}` : c.method, titleRank: 0 };
  return { title: `${ex.init.method} ${ex.url}`, titleRank: 0 };
}

function clip(s: string): string {
  const one = s.replace(/\s+/g, " ").trim();
  return one.length > 120 ? `${one.slice(0, 119)}…` : one;
}
