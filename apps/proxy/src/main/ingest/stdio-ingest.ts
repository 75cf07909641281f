/**
 * Records what the stdio tap (`hopscope wrap`) saw: each batch of events from one wrapped server becomes
 * exchanges on the MCP tap (method `STDIO`, see @hopscope/shared/trace/stdio-ingest), announced on the
 * live feed as they start and end, and handed to the store like a replay's (they pass through no tap, so
 * not through the recording thread's Recorder). Times are the wrapper's own (when the bytes passed), not
 * when the batch arrived. The wrapped process is one MCP session, kept in the trace the recorder gives it
 * (Recorder.placeStdio: the agent's run it started in, else its own) and named here by the session rules.
 */
import type { Chunk, Exchange, ExchangeState, ExchangeSummary } from "@hopscope/shared/trace/schemas";
import { classifyExchange } from "@hopscope/shared/trace/classify";
import { mcpSessionTitle } from "@hopscope/shared/trace/group-mcp";
import { isRecord } from "@hopscope/shared/trace/json-text";
import { tryParseJson } from "@hopscope/shared/json/parse";
import { listedToolNames } from "@hopscope/shared/trace/agent-run";
import { mcpClientName } from "@hopscope/shared/trace/mcp-client-match";
import type { StdioPlacement } from "../../link/calls";
import {
  STDIO_METHOD,
  STDIO_UPSTREAM_PREFIX,
  type StdioBatch,
  type StdioEvent,
  type StdioFrameData,
  isNormalEnd,
} from "@hopscope/shared/trace/stdio-ingest";
import type { InFlight, InFlightSource } from "../in-flight";
import type { Announce } from "../../link/frames";
import type { RecordingLink } from "../../link/calls";
import { textOf, toBody, toStoredBody, type StoredBody } from "../../link/stored-body";
import { exchangeRecord } from "../../link/exchange-record";
import { betterTitle, type TraceTitle } from "../../recording/trace-title";
import { MAX_TRACE_ENTRIES, RecentMap } from "../../recording/recent-map";

export interface StdioIngestDeps {
  inFlight: InFlight;
  link: RecordingLink;
  announce: Announce;
  maxBodyBytes: number;
}

interface Placed {
  id: number;
  traceId: string;
  seq: number;
}

/** What stays known about a request while its answer is awaited. */
interface Pending extends Placed {
  summary: ExchangeSummary;
  request: StoredBody;
}

type Session = StdioBatch["session"];

/** Requests in flight that are listed; past this the oldest are forgotten (still stored if answered). */
const MAX_PENDING = 10_000;

export class StdioIngest implements InFlightSource {
  private readonly pending = new Map<string, Pending>();
  /** Completed exchanges until the store has them, so a live view asking for one in between finds it. */
  private readonly unstored = new Map<number, Exchange>();
  /** Where the batch being recorded goes (Recorder.placeStdio); its seq advances as exchanges are placed. */
  private placement: StdioPlacement | null = null;
  private readonly names = new RecentMap<TraceTitle>(MAX_TRACE_ENTRIES);
  /** What the store has yet to take from the batch being recorded. */
  private stored: Promise<void>[] = [];
  /** Exchange ids handed out for the batch being recorded. */
  private ids: number[] = [];

  constructor(private readonly deps: StdioIngestDeps) {
    deps.inFlight.addSource(this);
  }

  /** Records a batch in order; resolves with how many events it held once the store has them all. */
  async ingest(batch: StdioBatch): Promise<number> {
    // One id per event at most (an answer to a known request needs none); asked for at once, then the batch
    // is recorded in one go, so batches never interleave.
    const ids = await this.deps.link.call("allocateIds", batch.events.length);
    this.ids = ids;
    // The session's trace (an agent's run, when it is in one) and seq numbers for its new exchanges.
    const count = batch.events.filter(
      (e) => e.type !== "answered" || !this.pending.has(`${batch.session.id}\u0000${e.key}`),
    ).length;
    const { id } = batch.session;
    const tools = this.listedTools(batch.events);
    this.placement = await this.deps.link.call("placeStdio", id, count, tools, this.clientName(batch.events));
    for (const event of batch.events) this.event(batch.session, event);
    const stored = this.stored;
    this.stored = [];
    await Promise.all(stored);
    return batch.events.length;
  }

  inFlight(): ExchangeSummary[] {
    return [...this.pending.values()].map((p) => p.summary);
  }

  inFlightExchange(id: number): Exchange | null {
    const done = this.unstored.get(id);
    if (done) return done;
    for (const p of this.pending.values()) {
      if (p.id === id)
        return {
          ...p.summary,
          requestHeaders: [],
          requestBody: toBody(p.request),
          responseHeaders: [],
          responseBody: null,
          chunks: [],
        };
    }
    return null;
  }

  private event(session: Session, e: StdioEvent): void {
    switch (e.type) {
      case "request": {
        const body = this.body(e.frame);
        const placed = this.place();
        const summary = this.summary(session, placed, e.stream, e.at, body, null, "pending", null, null);
        this.pending.set(`${session.id}\u0000${e.key}`, { ...placed, summary, request: body });
        // A tap killed before it could report its server's end leaves requests that are never answered.
        if (this.pending.size > MAX_PENDING) this.pending.delete(this.pending.keys().next().value as string);
        this.deps.announce({ type: "exchange.started", exchange: summary });
        return;
      }
      case "answered": {
        const key = `${session.id}\u0000${e.key}`;
        const request = this.body(e.request);
        // A request begun before a recorder restart is unknown here: the event carries it, so it is placed now.
        const known = this.pending.get(key);
        const placed = known ?? this.place();
        this.pending.delete(key);
        const answer = e.answer ? { body: this.body(e.answer), at: e.answerAt } : null;
        const state: ExchangeState = answer ? "complete" : "aborted";
        this.complete(session, placed, e.stream, e.at, request, answer, state, e.error ?? null, known !== undefined);
        return;
      }
      case "line": {
        const body = this.body(e.frame, e.stream === "stderr" ? "text/plain" : "application/json");
        const placed = this.place();
        this.complete(session, placed, e.stream, e.at, body, null, e.flag ? "error" : "complete", e.flag ?? null);
        return;
      }
      case "exit": {
        const how = e.signal ? `was killed by ${e.signal}` : `exited with code ${e.code ?? "?"}`;
        const placed = this.place();
        const failed = !isNormalEnd(e.code, e.signal);
        // No bytes travel at an exit: the body is the tap's own note of it, so the code shows even when it is 0.
        const note = Buffer.from(`the server ${how}`);
        const body = toStoredBody(note, note.length, "text/plain; charset=utf-8");
        this.complete(
          session,
          placed,
          "exit",
          e.at,
          body,
          null,
          failed ? "error" : "complete",
          failed ? `the server ${how}` : null,
        );
        return;
      }
    }
  }

  /** Trace, sequence number and id of a new exchange of this session (the batch's placement). */
  private place(): Placed {
    const id = this.ids.shift();
    const p = this.placement;
    if (id === undefined || !p)
      throw new Error("hopscope bug: a stdio batch needed more exchange ids than it has events");
    return { id, traceId: p.traceId, seq: p.firstSeq++ };
  }

  /** The tools a `tools/list` answered in this batch lists, so a model request offering them finds the run. */
  private listedTools(events: readonly StdioEvent[]): string[] {
    const out: string[] = [];
    for (const e of events) {
      if (e.type !== "answered" || !e.answer) continue;
      const request = tryParseJson(textOf(this.body(e.request)));
      if (isRecord(request) && request.method === "tools/list")
        out.push(...listedToolNames(textOf(this.body(e.answer))));
    }
    return out;
  }

  /** The name the host gives itself in the batch: its `initialize` (or a 2026-07-28 request's `_meta`). */
  private clientName(events: readonly StdioEvent[]): string | null {
    for (const e of events) {
      if ((e.type !== "request" && e.type !== "answered") || e.stream !== "stdin") continue;
      const frame = e.type === "request" ? e.frame : e.request;
      // Most messages name no client: only a frame that says `clientInfo` is parsed.
      const text = frame.encoding === "utf8" ? frame.data : Buffer.from(frame.data, "base64").toString("utf8");
      const name = text.includes("clientInfo") ? mcpClientName(tryParseJson(text)) : null;
      if (name !== null) return name;
    }
    return null;
  }

  private complete(
    session: Session,
    placed: Placed,
    url: string,
    at: number,
    request: StoredBody | null,
    answer: { body: StoredBody; at: number } | null,
    state: ExchangeState,
    error: string | null,
    started = false,
  ): void {
    const { announce, link } = this.deps;
    const summary = this.summary(session, placed, url, at, request, answer, state, error, answer?.at ?? at);
    // Every exchange is announced as started first, as a tap's are, so live views see it begin.
    if (!started)
      announce({
        type: "exchange.started",
        exchange: {
          ...summary,
          state: "pending",
          error: null,
          timings: { ...summary.timings, firstByte: null, end: null },
          responseSize: 0,
          chunkCount: 0,
        },
      });
    const c = summary.classification;
    const chunks: Chunk[] = answer ? [{ index: 0, t: answer.at - at, offset: 0, size: answer.body.size }] : [];
    const candidate = mcpSessionTitle(
      c.kind === "mcp" ? c.method : undefined,
      c.kind === "mcp" ? c.toolName : undefined,
      `${STDIO_METHOD} ${url}`,
    );
    const title = betterTitle(this.names.get(placed.traceId), candidate);
    this.names.set(placed.traceId, title);
    const record = exchangeRecord({
      summary,
      requestHeaders: [],
      responseHeaders: [],
      requestBody: request,
      responseBody: answer?.body ?? null,
      chunks,
      ...title,
      groupedBy: this.placement?.groupedBy ?? "session",
      source: "live",
    });
    // Queued like a recorded exchange: the store's commit then announces `trace.updated`.
    this.unstored.set(summary.id, {
      ...summary,
      requestHeaders: [],
      requestBody: request ? toBody(request) : null,
      responseHeaders: [],
      responseBody: answer ? toBody(answer.body) : null,
      chunks,
    });
    this.stored.push(link.call("enqueue", record).finally(() => this.unstored.delete(summary.id)));
    announce({ type: "exchange.completed", exchange: summary });
  }

  private summary(
    session: Session,
    placed: Placed,
    url: string,
    at: number,
    request: StoredBody | null,
    answer: { body: StoredBody; at: number } | null,
    state: ExchangeState,
    error: string | null,
    end: number | null,
  ): ExchangeSummary {
    const requestText = textOf(request);
    const responseText = answer ? textOf(answer.body) : null;
    return {
      id: placed.id,
      traceId: placed.traceId,
      seq: placed.seq,
      tap: "mcp",
      method: STDIO_METHOD,
      url,
      upstream: `${STDIO_UPSTREAM_PREFIX}${session.command}`,
      status: null,
      state,
      error,
      timings: { start: at, requestEnd: at, firstByte: answer?.at ?? null, end },
      requestSize: request?.size ?? 0,
      responseSize: answer?.body.size ?? 0,
      chunkCount: answer ? 1 : 0,
      classification: classifyExchange({
        tap: "mcp",
        method: STDIO_METHOD,
        url,
        status: null,
        requestText,
        responseText: state === "pending" ? null : responseText,
      }),
    };
  }

  /** A frame as the store keeps it: cut to MAX_BODY_BYTES like a tap's body, `size` the whole frame's. */
  private body(frame: StdioFrameData, contentType = "application/json"): StoredBody {
    const bytes = Buffer.from(frame.data, frame.encoding === "utf8" ? "utf8" : "base64");
    const cap = this.deps.maxBodyBytes;
    return toStoredBody(
      bytes.length > cap ? bytes.subarray(0, cap) : bytes,
      Math.max(frame.size, bytes.length),
      contentType,
    );
  }
}
