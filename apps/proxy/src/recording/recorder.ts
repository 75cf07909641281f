/**
 * The recorder: the one place that decides what an exchange is. It runs on the recording thread
 * (recording/thread.ts), fed the taps' events in order, and for each exchange it groups it into a trace,
 * numbers it, names the trace, classifies it, announces it on the live feed and hands its record to the
 * store. Nothing here touches sockets: the taps forward on their own thread and never wait for this.
 */
import type { Classification, Exchange, ExchangeSummary } from "@hopscope/shared/trace/schemas";
import { LESSON_HEADER } from "@hopscope/shared/ollama/schemas";
import { FallbackGrouper, conversationOf, type GroupResult, type GroupedBy } from "@hopscope/shared/trace/group";
import { agentRequestOf, isModelProbe, listedToolNames } from "@hopscope/shared/trace/agent-run";
import { textOf } from "../link/stored-body";
import { mcpClientOf, mcpSessionTitle } from "@hopscope/shared/trace/group-mcp";
import { headerValue, isRecord, pathOf } from "@hopscope/shared/trace/json-text";
import { redactHeaderBlock } from "@hopscope/shared/trace/header-block";
import { parseTraceparent, traceparentFromJsonRpc } from "@hopscope/shared/trace/traceparent";
import type { FeedEvent } from "../link/frames";
import { MAX_CHUNK_TEXT, type Span, type TapEvent } from "../link/protocol";
import type { StdioPlacement } from "../link/calls";
import { ExchangeDraft } from "./exchange-draft";
import { exchangeRecord, type ExchangeRecord } from "../link/exchange-record";
import { betterTitle, titleOf, type TraceTitle } from "./trace-title";
import { ChunkFrame } from "./chunk-frame";
import { InFlightMap } from "./in-flight-map";
import { MAX_TRACE_ENTRIES, RecentMap } from "./recent-map";

export interface RecorderDeps {
  announce: (event: FeedEvent) => void;
  store: (record: ExchangeRecord) => void;
  /** Highest seq stored for a trace (for traces this process has not numbered yet). */
  maxSeq: (traceId: string) => number;
  newTraceId: () => string;
  maxBodyBytes: number;
  /** The first exchange id to give (one more than the highest stored). */
  firstId: number;
}

export class Recorder {
  /** Exchanges in flight by the taps thread's number, and by exchange id. */
  private readonly drafts = new InFlightMap<ExchangeDraft>();
  private readonly byId = new InFlightMap<ExchangeDraft>();
  private nextId: number;
  /** The last `x-hopscope-lesson` a model request carried (shown by /api/config). */
  lastLesson: string | null = null;
  private readonly seqs = new RecentMap<number>(MAX_TRACE_ENTRIES);
  private readonly names = new RecentMap<TraceTitle>(MAX_TRACE_ENTRIES);
  private readonly grouper: FallbackGrouper;
  /** Wrapped stdio servers' sessions and the trace each is in. */
  private readonly stdioSessions = new RecentMap<{ traceId: string; groupedBy: GroupedBy }>(MAX_TRACE_ENTRIES);

  constructor(private readonly deps: RecorderDeps) {
    this.grouper = new FallbackGrouper({ newTraceId: deps.newTraceId });
    this.nextId = deps.firstId;
  }

  /** Ids for exchanges written by import and replay (they share the id space of recorded ones). */
  allocateIds(n: number): number[] {
    return Array.from({ length: n }, () => this.nextId++);
  }

  /** The exchanges in flight that have a trace (summaries as the API lists them). */
  inFlight(): ExchangeSummary[] {
    const out: ExchangeSummary[] = [];
    for (const d of this.byId.values())
      if (d.traceId !== null) out.push(d.summary(d.requestDone ? d.requestClassification() : d.classify(null, null)));
    return out;
  }

  /** An exchange in flight with what of its bodies has arrived (GET /api/exchanges/:id). */
  inFlightExchange(id: number): Exchange | null {
    const d = this.byId.get(id);
    return d && d.traceId !== null
      ? d.snapshot(d.requestDone ? d.requestClassification() : d.classify(null, null))
      : null;
  }

  /** One event from a tap; `bytes` resolves a span of the batch the event came in. */
  handle(e: TapEvent, bytes: (span: Span) => Buffer): void {
    if (e.k === "begin") {
      const d = new ExchangeDraft(e, this.nextId++, this.deps.maxBodyBytes);
      this.drafts.set(e.id, d);
      this.byId.set(d.id, d);
      if (e.tap === "model") this.lastLesson = headerValue(e.headers, LESSON_HEADER) ?? this.lastLesson;
      return;
    }
    const d = this.drafts.get(e.id);
    if (!d) throw new Error(`hopscope bug: tap event ${e.k} for exchange ${e.id}, which never began`);
    switch (e.k) {
      case "request":
        d.setRequest(joined(e.parts, bytes), e.size, e.at);
        return this.assignTrace(d);
      case "response":
        this.assignTrace(d);
        d.status = e.status;
        d.responseHeaders = redactHeaderBlock(e.headers);
        d.state = "streaming";
        return;
      case "chunk": {
        const kept = e.bytes ? bytes(e.bytes) : null;
        const chunk = d.addChunk(e.t, e.size, kept);
        // Text for a small chunk (MAX_CHUNK_TEXT; bigger ones: fetch the exchange) that is UTF-8 on its own,
        // decoded when the frame is serialised: a frame parked while nobody watches usually never is.
        const whole = e.text ? bytes(e.text) : kept && kept.length === e.size ? kept : null;
        const small = whole && whole.length <= MAX_CHUNK_TEXT ? whole : null;
        return this.deps.announce(new ChunkFrame(d.id, d.traceId as string, chunk, small));
      }
      case "end":
        d.ended(e.state, e.error, e.at);
        return this.finish(d);
    }
  }

  /**
   * A batch of a wrapped stdio server's session (recorded on the main thread): the session keeps the trace
   * it was first given, which joins the agent's run (group.ts); `count` seq numbers are reserved in it.
   * `client`: the name the host gave itself in the batch (null: none yet).
   */
  placeStdio(session: string, count: number, tools: readonly string[], client: string | null): StdioPlacement {
    const now = Date.now();
    let placed = this.stdioSessions.get(session);
    let fresh = false;
    if (!placed) {
      const g = this.grouper.assignStdioSession(now, client);
      placed = { traceId: g.traceId, groupedBy: g.groupedBy };
      fresh = g.fresh === true;
      this.stdioSessions.set(session, placed);
    } else this.grouper.noteMcpClient(placed.traceId, client);
    if (tools.length > 0) this.grouper.noteListedTools(placed.traceId, tools, now);
    const firstSeq = this.nextSeq(placed.traceId, fresh);
    if (count > 1) this.seqs.set(placed.traceId, firstSeq + count - 1);
    return { ...placed, firstSeq };
  }

  /** A deleted trace starts again from seq 1 and a fresh name. */
  forgetTrace(traceId: string): void {
    this.seqs.delete(traceId);
    this.names.delete(traceId);
  }

  /** Classifies the finished exchange, announces it, and hands its record to the store. */
  private finish(d: ExchangeDraft): void {
    this.assignTrace(d);
    this.drafts.delete(d.begin.id);
    this.byId.delete(d.id);
    const responseBody = d.responseBody();
    const c = d.classify(d.status, responseBody);
    const traceId = d.traceId as string;
    if (c.kind === "model.chat" && c.toolCalls.length > 0)
      this.grouper.noteToolCalls(
        traceId,
        c.toolCalls.map((t) => t.name),
        Date.now(),
        d.begin.connection,
      );
    if (c.kind === "mcp" && c.method === "tools/list" && c.outcome === "ok")
      this.grouper.noteListedTools(traceId, listedToolNames(responseBody ? textOf(responseBody) : null), Date.now());
    const summary = d.summary(c);
    const title = this.names.get(traceId) ?? this.titleOf(d, c);
    this.deps.store(
      exchangeRecord({
        summary,
        requestHeaders: d.requestHeaders,
        responseHeaders: d.responseHeaders,
        requestBody: d.request,
        requestTools: d.requestTools(),
        responseBody,
        chunks: d.chunks,
        requestJson: d.requestJson(),
        title: title.title,
        titleRank: title.titleRank,
        groupedBy: d.groupedBy,
        source: "live",
      }),
    );
    this.deps.announce({ type: "exchange.completed", exchange: summary });
  }

  /** Puts the exchange in a trace (once), from what of the request has arrived, names and announces it. */
  private assignTrace(d: ExchangeDraft): void {
    if (d.traceId !== null) return;
    const result = this.group(d);
    d.traceId = result.traceId;
    d.groupedBy = result.groupedBy;
    // "single" always means a freshly generated trace id: nothing of it can be stored yet.
    d.seq = this.nextSeq(result.traceId, result.groupedBy === "single" || result.fresh === true);
    const c: Classification = d.requestDone ? d.requestClassification() : d.classify(null, null);
    if (d.requestDone) this.name(result.traceId, this.titleOf(d, c));
    this.deps.announce({ type: "exchange.started", exchange: d.summary(c) });
  }

  private group(d: ExchangeDraft): GroupResult {
    const { tap, url, headers } = d.begin;
    const now = Date.now();
    const header = parseTraceparent(headerValue(headers, "traceparent"));
    const body = d.requestJson();
    const path = pathOf(url);
    // Every chat dialect is compared as the native messages Ollama builds from it.
    const conversation = tap === "model" ? conversationOf(path, body) : null;
    if (conversation) {
      const agent = agentRequestOf(d.begin.connection, headers, body, () => d.wholeRequestJson());
      return this.grouper.assignModelChat(conversation, now, header?.traceId, d.begin.connection, agent);
    }
    if (tap === "model" && !header && isModelProbe(d.begin.method, path)) {
      const agent = agentRequestOf(d.begin.connection, headers, body);
      return this.grouper.assignProbe(agent.client, agent.session, now);
    }
    if (tap === "mcp") {
      const known = header ?? parseTraceparent(traceparentFromJsonRpc(body));
      const method = isRecord(body) && typeof body.method === "string" ? body.method : undefined;
      const tool =
        isRecord(body) && isRecord(body.params) && typeof body.params.name === "string" ? body.params.name : undefined;
      if (!known) return this.grouper.assignMcp(method, tool, now, mcpClientOf(d.begin.connection, headers, body));
      if (method === "tools/call" && tool) this.grouper.consumeToolCall(known.traceId, tool);
      return { traceId: known.traceId, groupedBy: "traceparent" };
    }
    return header
      ? { traceId: header.traceId, groupedBy: "traceparent" }
      : { traceId: this.deps.newTraceId(), groupedBy: "single" };
  }

  /** The exchange's name candidate: an MCP session is named after its calls (group-mcp.ts). */
  private titleOf(d: ExchangeDraft, c: Classification): TraceTitle {
    const line = `${d.begin.method} ${d.url}`;
    if (d.groupedBy === "session" || d.groupedBy === "agent-start" || d.groupedBy === "mcp-client")
      return mcpSessionTitle(c.kind === "mcp" ? c.method : undefined, c.kind === "mcp" ? c.toolName : undefined, line);
    return titleOf(line, c, d.requestJson());
  }

  /** The trace's name from the first good candidate seen (see trace-title.ts). */
  private name(traceId: string, candidate: TraceTitle): void {
    const next = betterTitle(this.names.get(traceId), candidate);
    this.names.set(traceId, next);
  }

  private nextSeq(traceId: string, fresh: boolean): number {
    const current = this.seqs.get(traceId) ?? (fresh ? 0 : this.deps.maxSeq(traceId));
    this.seqs.set(traceId, current + 1);
    return current + 1;
  }
}

/**
 * A request's kept parts as one Buffer: the taps thread puts them one after another in the batch's bytes,
 * so that is a view of them, not a copy (a copy only if they ever are not adjacent).
 */
function joined(parts: readonly Span[], bytes: (span: Span) => Buffer): Buffer[] {
  const first = parts[0];
  const last = parts[parts.length - 1];
  if (!first || !last || parts.length === 1) return parts.map(bytes);
  let at = first[0];
  for (const [offset, length] of parts) {
    if (offset !== at) return parts.map(bytes);
    at += length;
  }
  return [bytes([first[0], at - first[0]])];
}
