/**
 * One client connection on a tap, relayed byte for byte to an upstream connection of its own: the request
 * side. The responses due go back through the connection's ResponseQueue (response-queue.ts), in order.
 *
 * llhttp frames the client's bytes; each head is checked (the guard), rewritten (hop-headers.ts) and sent,
 * then its body bytes as the parser gives them (a chunked body goes on chunked, framed again:
 * Transfer-Encoding is kept, its codings unchanged; chunk extensions and trailers are dropped, as node:http
 * dropped them). A request the tap answers itself (a refusal, a 400) is queued as that answer; a head that
 * takes longer than HEADERS_TIMEOUT_MS gets 408 (head-timer.ts).
 */
import type net from "node:net";
import { parseTraceparent } from "@hopscope/shared/trace/traceparent";
import { newTraceparent } from "@hopscope/nodekit/trace-ids";
import type { RelayContext } from "./relay-context";
import type { LiveExchange } from "./live-exchange";
import { BODY, MessageParser, type Head, type ParseError } from "./llhttp";
import { flatHeader, forwardHeaders, setFlatHeader } from "./hop-headers";
import { checkHead } from "./head-guard";
import { formatRequestHead } from "./request-head";
import { BAD_REQUEST, REQUEST_TIMEOUT, refusalAnswer } from "./answers";
import { ResponseQueue, type RequestSide } from "./response-queue";
import type { Slot } from "./slot";

const CLIENT_GONE = "the client closed the connection before the response was complete";
const KEEP_ALIVE_MS = 5000;

export class RequestRelay implements RequestSide {
  private readonly parser: MessageParser;
  private readonly connection: string;
  private readonly responses: ResponseQueue;
  /** The request whose body is arriving. */
  private current: Slot | null = null;
  /** No more requests are read: a refusal or a 400 is due, or the connection is closing. */
  private stopped = false;
  /** The forwarded head of the request being received, until it is written (latin1). */
  private pendingHead: string | null = null;
  /** The HeadTimer tick at which the request head being received began; -1 while none is. */
  private headTick = -1;
  /** Not reading while the recording thread is behind (the gate is closed). */
  held = false;

  constructor(
    private readonly client: net.Socket,
    private readonly ctx: RelayContext,
  ) {
    this.connection = `${client.remoteAddress ?? "?"}:${client.remotePort ?? "?"}`;
    this.responses = new ResponseQueue(client, ctx, this);
    this.parser = new MessageParser("request", {
      head: (head) => this.requestHead(head),
      body: (bytes) => this.requestBody(bytes),
      complete: () => this.requestComplete(),
    });
    client.on("data", (bytes: Buffer) => this.clientBytes(bytes));
    client.on("error", (err) => ctx.logger.debug?.({ err, tap: ctx.tap }, "client connection failed"));
    client.on("close", () => this.clientClosed());
    // An idle keep-alive connection is closed after 5 s, as node:http's server closed it.
    client.setTimeout(KEEP_ALIVE_MS);
    client.on("timeout", () => {
      if (this.responses.empty && this.current === null && !this.held) client.destroy();
    });
    this.holdWhileBehind();
  }

  /**
   * Backpressure: while the recording thread is behind, the client's bytes stay in its socket (and the
   * kernel's buffers, then the client's) until it has caught up. What was read is relayed as usual; a
   * connection held is not idle.
   */
  private holdWhileBehind(): void {
    if (!this.ctx.gate.closed || this.held) return;
    this.client.pause();
    this.held = true;
    this.ctx.gate.whenOpen(() => {
      this.held = false;
      if (this.client.destroyed) return;
      this.client.setTimeout(KEEP_ALIVE_MS);
      // An upstream still draining what was written to it resumes the client itself (response-queue.ts).
      if (!this.responses.waitingForUpstream) this.client.resume();
    });
  }

  get receiving(): Slot | null {
    return this.current;
  }

  stop(): void {
    this.stopped = true;
  }

  /** Asked each HeadTimer tick: a head begun too long ago gets 408 and the connection closes (a slowloris). */
  checkHeadTime(tick: number): void {
    if (this.headTick < 0 || this.stopped || tick - this.headTick < this.ctx.heads.ticks) return;
    this.ctx.logger.debug?.(
      { tap: this.ctx.tap, connection: this.connection },
      "request head not complete in time: 408",
    );
    this.answerAndClose(REQUEST_TIMEOUT);
  }

  private clientBytes(bytes: Buffer): void {
    if (this.stopped) return;
    const link = this.responses.link;
    if (this.responses.tunnel) {
      if (link && !link.write(bytes)) this.responses.pauseClient(link);
      return;
    }
    // Bytes outside a body begin a head: timed until it is complete (a body, however slow, is not).
    if (this.current === null && this.headTick < 0) this.headTick = this.ctx.heads.tick;
    // One write to the upstream for a head and the body bytes that came with it.
    link?.socket.cork();
    const err = this.parser.execute(bytes);
    this.writeHead();
    link?.socket.uncork();
    // After a refusal the rest of the read is not ours to judge: the connection is closing.
    if (err && !this.stopped) this.malformed(err);
    else this.holdWhileBehind();
  }

  private requestHead(head: Head): number {
    this.headTick = -1;
    if (this.stopped) return BODY;
    const { ctx } = this;
    if (head.method === "CONNECT") {
      this.malformed(null);
      return BODY;
    }
    const refusal = checkHead(head.method, head.headers, ctx.guard);
    if (refusal) {
      // Not forwarded and not recorded: nothing reached the upstream. The body is left unread, so no reuse.
      ctx.logger.warn({ tap: ctx.tap, reason: refusal.reason }, refusal.message);
      this.answerAndClose(refusalAnswer(refusal).bytes);
      return BODY;
    }
    const chunked = flatHeader(head.headers, "transfer-encoding") !== undefined;
    const outgoing = forwardHeaders(head.headers, ctx.target.host, chunked);
    // The upstream connection serves this client connection alone, so the client's wish to close (or an
    // HTTP/1.0 client's to stay) goes on: the upstream's answer then says so itself, in the bytes relayed.
    if (!head.keepAlive) outgoing.push("Connection", "close");
    else if (head.versionMajor === 1 && head.versionMinor === 0) outgoing.push("Connection", "keep-alive");
    if (ctx.tap === "agent" && !parseTraceparent(flatHeader(head.headers, "traceparent"))) {
      // The agent tap starts the trace so every hop of this question shares one trace-id (recorded with it).
      const tp = newTraceparent();
      setFlatHeader(outgoing, "traceparent", tp);
      setFlatHeader(head.headers, "traceparent", tp);
    }
    const ex = ctx.reporter.begin({
      tap: ctx.tap,
      method: head.method,
      url: head.url,
      upstream: ctx.upstream,
      requestHeaders: head.headers,
      connection: this.connection,
    });
    this.writeHead();
    const link = this.responses.linkForRequest();
    // Sent with the first body bytes (one write, not two), or once this read is parsed.
    const forwarded = formatRequestHead(head, ctx.target.basePath + head.url, outgoing);
    this.pendingHead = forwarded;
    const slot: Slot = {
      ex,
      local: null,
      link,
      head: forwarded,
      reused: link.served > 0 && this.responses.empty,
      isHead: head.method === "HEAD",
      chunked,
      keepAlive: head.keepAlive,
      started: false,
      interim: false,
      upgraded: false,
    };
    this.responses.add(slot);
    this.current = slot;
    return BODY;
  }

  private requestBody(bytes: Buffer): void {
    const s = this.current;
    if (!s) return;
    this.ctx.reporter.requestData(s.ex as LiveExchange, bytes);
    const link = s.link;
    if (link === null || link !== this.responses.link) return;
    const head = this.pendingHead;
    let ok: boolean;
    if (head !== null && !s.chunked) {
      this.pendingHead = null;
      const both = Buffer.allocUnsafe(head.length + bytes.length);
      both.write(head, 0, "latin1");
      bytes.copy(both, head.length);
      ok = link.write(both);
    } else {
      this.writeHead();
      ok = s.chunked ? link.writeChunk(bytes) : link.write(bytes);
    }
    if (!ok) this.responses.pauseClient(link);
  }

  /** The head of the request being received, if it is not on its way yet. */
  private writeHead(): void {
    const head = this.pendingHead;
    if (head === null) return;
    this.pendingHead = null;
    const link = this.responses.link;
    if (link && !link.write(head)) this.responses.pauseClient(link);
  }

  private requestComplete(): void {
    const s = this.current;
    if (!s) return;
    this.current = null;
    if (s.link !== null && s.link === this.responses.link) {
      this.writeHead();
      if (s.chunked) s.link.write("0\r\n\r\n");
    }
    this.ctx.reporter.requestEnded(s.ex as LiveExchange);
  }

  /** A request that cannot be framed: 400 and close (a body cut off mid-way: the exchange is an error). */
  private malformed(err: ParseError | null): void {
    const { ctx } = this;
    ctx.logger.debug?.({ tap: ctx.tap, code: err?.code, reason: err?.reason }, "malformed client request");
    const s = this.current;
    if (s) {
      this.current = null;
      ctx.reporter.finish(
        s.ex as LiveExchange,
        "error",
        `the client sent a malformed request (${err?.reason ?? "unsupported"})`,
      );
      this.client.destroy();
      return;
    }
    this.answerAndClose(BAD_REQUEST);
  }

  /** The tap's own answer, after every response due before it; no more requests are read. */
  private answerAndClose(bytes: Buffer): void {
    this.stopped = true;
    this.responses.answerAndClose(bytes);
  }

  private clientClosed(): void {
    this.stopped = true;
    // The client hung up before its responses were complete: stop the upstream's work too.
    this.responses.clientClosed(CLIENT_GONE);
    if (this.current?.ex) this.ctx.reporter.finish(this.current.ex, "aborted", CLIENT_GONE);
    this.current = null;
    this.parser.close();
  }
}
