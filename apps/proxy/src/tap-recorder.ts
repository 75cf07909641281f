/**
 * What the taps and the API talk to on the forwarding thread. A tap hands it each exchange's bytes as they
 * pass; it fills the passive LiveExchange and sends copies to the recording thread (recording/link.ts),
 * where the Recorder groups, numbers, classifies and stores. It never waits: when the recording thread is
 * too far behind, a new exchange is forwarded but not recorded (and reported in /api/health).
 *
 * What the recorder announces comes back here: the exchange's trace and classification are kept on its
 * LiveExchange (for the API's exchanges-in-flight) and the frames go to the live feed.
 */
import type { ExchangeState, ExchangeSummary, Trace } from "@hopscope/shared/trace/schemas";
import { LESSON_HEADER } from "@hopscope/shared/ollama/schemas";
import type { Announce } from "./live/frames";
import type { AnnouncedFrames } from "./recording/protocol";
import type { RecordingLink } from "./recording/link";
import { LiveExchange, type BeginInit } from "./live-exchange";
import { getHeader } from "./tap/hop-headers";
import { nowEpoch } from "./clock";

export type { BeginInit } from "./live-exchange";

/** Chunk text is sent on the live feed only below this size (bigger chunks: fetch the exchange). */
const MAX_CHUNK_TEXT = 64 * 1024;

/** Exchanges in flight that pass through no tap (replays of saved traces), listed with the taps' own. */
export interface InFlightSource {
  inFlight(): ExchangeSummary[];
}

export interface TapRecorderDeps {
  link: RecordingLink;
  announce: Announce;
  maxBodyBytes: number;
  /** The first exchange id to hand out (one more than the highest stored). */
  firstId: number;
}

export class TapRecorder {
  private nextId: number;
  private readonly live = new Map<number, LiveExchange>();
  private readonly inFlightSources: InFlightSource[] = [];
  /** The last `x-hopscope-lesson` a model request carried (shown by /api/config). */
  lastLesson: string | null = null;

  constructor(private readonly deps: TapRecorderDeps) {
    this.nextId = deps.firstId;
  }

  begin(init: BeginInit): LiveExchange {
    const { link } = this.deps;
    const ex = new LiveExchange(this.nextId++, init, this.deps.maxBodyBytes, link.accepting());
    if (init.tap === "model") this.lastLesson = getHeader(init.requestHeaders, LESSON_HEADER) ?? this.lastLesson;
    if (!ex.recorded) {
      link.notRecorded(ex.id);
      return ex;
    }
    this.live.set(ex.id, ex);
    const { tap, method, url, upstream, requestHeaders, connection } = init;
    link.send({ k: "begin", id: ex.id, tap, method, url, upstream, headers: requestHeaders, connection: connection ?? null, start: ex.start });
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

  responseStarted(ex: LiveExchange, status: number, headers: [string, string][]): void {
    ex.status = status;
    ex.responseHeaders = headers;
    ex.state = "streaming";
    if (ex.recorded) this.deps.link.send({ k: "response", id: ex.id, status, headers });
  }

  /** A response chunk; `arrived` is its performance.now() arrival time (taken before it was forwarded). */
  responseChunk(ex: LiveExchange, chunk: Buffer, arrived = performance.now()): void {
    const t = arrived - ex.startPerf;
    // Same sum as the stored start + chunk t, so the two agree to the last bit.
    if (ex.firstByte === null) ex.firstByte = ex.start + t;
    ex.chunks.push({ index: ex.chunks.length, t, offset: ex.responseBody.size, size: chunk.length });
    const kept = ex.responseBody.add(chunk);
    if (!ex.recorded) return;
    ex.chunkBytes.push(chunk.length <= MAX_CHUNK_TEXT ? chunk : EMPTY);
    const { link } = this.deps;
    link.send({ k: "chunk", id: ex.id, t, size: chunk.length, bytes: kept ? link.span(kept) : null });
  }

  /** Ends the exchange (once). */
  finish(ex: LiveExchange, state: Exclude<ExchangeState, "pending" | "streaming">, error: string | null = null): void {
    if (ex.finished) return;
    ex.state = state;
    ex.error = error;
    ex.end = nowEpoch();
    if (!ex.recorded) return;
    this.sendRequest(ex);
    this.deps.link.send({ k: "end", id: ex.id, state, error, at: ex.end });
  }

  /** What the recorder announced, in order (serialised frames): kept for the exchanges in flight, then sent on the live feed. */
  announced(frames: AnnouncedFrames): void {
    const { announce } = this.deps;
    for (let i = 0; i < frames.length; i += 4) {
      const type = frames[i] as string;
      const id = frames[i + 1] as number;
      const json = frames[i + 3] as string;
      const ex = this.live.get(id);
      if (type === "exchange.chunk") {
        const index = frames[i + 2] as number;
        const bytes = ex?.chunkBytes[index];
        if (ex) ex.chunkBytes[index] = EMPTY;
        // Decoded only if a live client reads it (the Buffer is immutable once received, so decoding later is exact).
        announce({ json: () => withText(json, bytes), size: 160 + (bytes?.length ?? 0) });
        continue;
      }
      if (type === "exchange.started" && ex) ex.announcedJson = json;
      else if (type === "exchange.completed") this.live.delete(id);
      announce({ json: () => json, size: json.length });
    }
  }

  /** Ids for exchanges written by import and replay (they share the id space of recorded ones). */
  allocateIds(n: number): number[] {
    return Array.from({ length: n }, () => this.nextId++);
  }

  get(id: number): LiveExchange | undefined {
    return this.live.get(id);
  }

  inFlight(): ExchangeSummary[] {
    const own: ExchangeSummary[] = [];
    for (const ex of this.live.values()) {
      const s = ex.summary();
      if (s) own.push(s);
    }
    return this.inFlightSources.length === 0 ? own : own.concat(...this.inFlightSources.map((s) => s.inFlight()));
  }

  addInFlightSource(source: InFlightSource): void {
    this.inFlightSources.push(source);
  }

  /**
   * A trace none of whose exchanges has completed yet (so it is not stored): built from the exchanges in
   * flight, so the UI can open a trace the moment its first exchange starts.
   */
  liveTrace(traceId: string): Trace | null {
    const exchanges = this.inFlight()
      .filter((e) => e.traceId === traceId)
      .sort((a, b) => a.seq - b.seq);
    const first = exchanges[0];
    if (!first) return null;
    const question = exchanges.find((e) => e.classification.kind === "agent")?.classification;
    return {
      id: traceId,
      name: question?.kind === "agent" && question.message ? question.message : `${first.method} ${first.url}`,
      source: "live",
      createdAt: first.timings.start,
      updatedAt: Math.max(...exchanges.map((e) => e.timings.start)),
      exchangeCount: exchanges.length,
      errorCount: 0,
      groupedBy: "single",
      simulated: null,
      savedAs: null,
      exchanges,
      links: [],
    };
  }

  private sendRequest(ex: LiveExchange): void {
    if (ex.requestSent || !ex.recorded) return;
    ex.requestSent = true;
    const { link } = this.deps;
    link.send({ k: "request", id: ex.id, parts: ex.requestBody.keptParts.map((p) => link.span(p)), size: ex.requestBody.size, at: ex.requestEnd });
  }
}

const EMPTY = Buffer.alloc(0);
const utf8 = new TextDecoder("utf-8", { fatal: true });

/** A chunk frame with its text, when the chunk is UTF-8 on its own. */
function withText(json: string, bytes: Buffer | undefined): string {
  const text = bytes && bytes.length > 0 ? decodeChunk(bytes) : undefined;
  return text === undefined ? json : `${json.slice(0, -1)},"text":${JSON.stringify(text)}}`;
}

function decodeChunk(chunk: Buffer): string | undefined {
  try {
    return utf8.decode(chunk);
  } catch (err) {
    // Not UTF-8 on its own (binary, or a character split across chunks): the feed sends no text.
    if (err instanceof TypeError) return undefined;
    throw err;
  }
}
