/**
 * What the taps call as bytes pass, on the taps thread: it fills the passive LiveExchange and reports
 * what it saw to the recording thread (tap/event-sender.ts), where the Recorder groups, numbers,
 * classifies and stores. It records nothing itself and never waits: the taps stop reading new requests while
 * the recording thread is behind (tap/recording-gate.ts), and past the queue's hard cap a new exchange is
 * forwarded but not recorded (and reported in /api/health).
 */
import type { ExchangeState } from "@hopscope/shared/trace/schemas";
import type { EventSender } from "./event-sender";
import { MAX_CHUNK_TEXT } from "../link/protocol";
import { LiveExchange, type BeginInit } from "./live-exchange";
import { nowEpoch } from "../clock";
import { toHeaderBlock } from "@hopscope/shared/trace/header-block";

export type { BeginInit } from "./live-exchange";

export class ExchangeReporter {
  private nextId = 1;

  constructor(
    private readonly sender: EventSender,
    private readonly maxBodyBytes: number,
  ) {}

  begin(init: BeginInit): LiveExchange {
    const { sender } = this;
    const ex = new LiveExchange(this.nextId++, init, this.maxBodyBytes, sender.accepting());
    if (!ex.recorded) {
      sender.notRecorded(ex.id);
      return ex;
    }
    const { tap, method, url, upstream, requestHeaders, connection } = init;
    sender.send({
      k: "begin",
      id: ex.id,
      tap,
      method,
      url,
      upstream,
      headers: toHeaderBlock(requestHeaders),
      connection: connection ?? null,
      start: ex.start,
    });
    return ex;
  }

  requestData(ex: LiveExchange, chunk: Buffer): void {
    ex.requestBody.add(chunk);
  }

  requestEnded(ex: LiveExchange): void {
    if (ex.requestEnd !== null) return;
    ex.requestEnd = nowEpoch();
    this.sendRequest(ex);
  }

  /** `headers` in Node's raw form ([name, value, …]), as received. */
  responseStarted(ex: LiveExchange, status: number, headers: readonly string[]): void {
    ex.state = "streaming";
    if (ex.recorded) this.sender.send({ k: "response", id: ex.id, status, headers: toHeaderBlock(headers) });
  }

  /** A response chunk; `arrived` is its performance.now() arrival time (taken before it was forwarded). */
  responseChunk(ex: LiveExchange, chunk: Buffer, arrived = performance.now()): void {
    const kept = ex.keepResponse(chunk);
    if (!ex.recorded) return;
    const { sender } = this;
    const t = arrived - ex.startPerf;
    const bytes = kept ? sender.span(kept) : null;
    // Beyond the body cap the bytes are not kept, but the live feed still shows a small chunk's text.
    if (kept !== chunk && chunk.length <= MAX_CHUNK_TEXT)
      sender.send({ k: "chunk", id: ex.id, t, size: chunk.length, bytes, text: sender.span(chunk) });
    else sender.send({ k: "chunk", id: ex.id, t, size: chunk.length, bytes });
  }

  /** Ends the exchange (once). */
  finish(ex: LiveExchange, state: Exclude<ExchangeState, "pending" | "streaming">, error: string | null = null): void {
    if (ex.finished) return;
    ex.state = state;
    ex.end = nowEpoch();
    if (!ex.recorded) return;
    this.sendRequest(ex);
    this.sender.send({ k: "end", id: ex.id, state, error, at: ex.end });
  }

  private sendRequest(ex: LiveExchange): void {
    if (ex.requestSent || !ex.recorded) return;
    ex.requestSent = true;
    const { sender } = this;
    sender.send({
      k: "request",
      id: ex.id,
      parts: ex.requestBody.keptParts.map((p) => sender.span(p)),
      size: ex.requestBody.size,
      at: ex.requestEnd,
    });
  }
}
