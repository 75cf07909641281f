/**
 * One client connection on a tap, relayed byte for byte to an upstream connection of its own.
 *
 * Requests: llhttp frames the client's bytes; each head is checked (the guard), rewritten (hop-headers.ts)
 * and sent, then its body bytes as the parser gives them (a chunked body goes on chunked, framed again:
 * Transfer-Encoding is kept, its codings unchanged; chunk extensions and trailers are dropped, as node:http
 * dropped them). Responses: each read goes to the client unchanged as it arrives (its arrival time taken
 * first), and only then is it parsed, to tell the recorder where each response starts and ends.
 *
 * Responses go back in the order of the requests (pipelining included): `queue` holds the exchanges whose
 * responses are due, and what the tap answers itself (a refusal, a 400, a 408) waits there for its turn.
 * A request the upstream dropped as it closed an idle link is sent again once (slot.ts); a head that takes
 * longer than HEADERS_TIMEOUT_MS gets 408 (head-timer.ts).
 */
import type net from "node:net";
import type { Tap } from "@hopscope/shared/trace/schemas";
import { parseTraceparent } from "@hopscope/shared/trace/traceparent";
import { newTraceparent } from "@hopscope/nodekit/trace-ids";
import type { GuardPolicy } from "@hopscope/nodekit/guard";
import type { Logger } from "../logger";
import type { ExchangeReporter } from "./exchange-reporter";
import type { LiveExchange } from "./live-exchange";
import { BODY, MessageParser, NO_BODY, type Head, type ParseError } from "./llhttp";
import { flatHeader, forwardHeaders, setFlatHeader } from "./hop-headers";
import { checkHead } from "./head-guard";
import { formatRequestHead } from "./request-head";
import { BAD_REQUEST, REQUEST_TIMEOUT, jsonAnswer, refusalAnswer } from "./answers";
import { UpstreamTimeoutError, upstreamFailure } from "./upstream-error";
import { UpstreamLink, type LinkOwner, type UpstreamTarget } from "./upstream-link";
import type { HeadTimer } from "./head-timer";
import { localSlot, resend, resendable, type Slot } from "./slot";

export interface RelayContext {
  tap: Tap;
  upstream: string;
  target: UpstreamTarget & { host: string; basePath: string };
  reporter: ExchangeReporter;
  timeoutMs: number;
  /** The head timeout's clock (HEADERS_TIMEOUT_MS). */
  heads: HeadTimer;
  logger: Logger;
  guard: GuardPolicy;
}

const CLIENT_GONE = "the client closed the connection before the response was complete";
const KEEP_ALIVE_MS = 5000;

export class RelayConnection implements LinkOwner {
  private readonly parser: MessageParser;
  private readonly connection: string;
  private link: UpstreamLink | null = null;
  private readonly queue: Slot[] = [];
  /** The request whose body is arriving. */
  private current: Slot | null = null;
  /** No more requests are read: a refusal or a 400 is due, or the connection is closing. */
  private stopped = false;
  private closed = false;
  /** The upstream switched protocols (101): bytes pass both ways unparsed. */
  private tunnel = false;
  private arrived = 0;
  private responseKeepAlive = true;
  private pausedBy: UpstreamLink | null = null;
  /** The forwarded head of the request being received, until it is written (latin1). */
  private pendingHead: string | null = null;
  /** The HeadTimer tick at which the request head being received began; -1 while none is. */
  private headTick = -1;

  constructor(
    private readonly client: net.Socket,
    private readonly ctx: RelayContext,
  ) {
    this.connection = `${client.remoteAddress ?? "?"}:${client.remotePort ?? "?"}`;
    this.parser = new MessageParser("request", {
      head: (head) => this.requestHead(head),
      body: (bytes) => this.requestBody(bytes),
      complete: () => this.requestComplete(),
    });
    client.on("data", (bytes: Buffer) => this.clientBytes(bytes));
    client.on("drain", () => this.link?.socket.resume());
    client.on("error", (err) => ctx.logger.debug?.({ err, tap: ctx.tap }, "client connection failed"));
    client.on("close", () => this.clientClosed());
    // An idle keep-alive connection is closed after 5 s, as node:http's server closed it.
    client.setTimeout(KEEP_ALIVE_MS);
    client.on("timeout", () => {
      if (this.queue.length === 0 && this.current === null) client.destroy();
    });
  }

  private clientBytes(bytes: Buffer): void {
    if (this.stopped) return;
    const link = this.link;
    if (this.tunnel) {
      if (link && !link.write(bytes)) this.pauseClient(link);
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
    const link = this.linkForRequest();
    // Sent with the first body bytes (one write, not two), or once this read is parsed.
    const forwarded = formatRequestHead(head, ctx.target.basePath + head.url, outgoing);
    this.pendingHead = forwarded;
    const slot: Slot = {
      ex,
      local: null,
      link,
      head: forwarded,
      reused: link.served > 0 && this.queue.length === 0,
      isHead: head.method === "HEAD",
      chunked,
      keepAlive: head.keepAlive,
      started: false,
      interim: false,
      upgraded: false,
    };
    this.queue.push(slot);
    this.current = slot;
    return BODY;
  }

  private requestBody(bytes: Buffer): void {
    const s = this.current;
    if (!s) return;
    this.ctx.reporter.requestData(s.ex as LiveExchange, bytes);
    const link = s.link;
    if (link === null || link !== this.link) return;
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
    if (!ok) this.pauseClient(link);
  }

  /** The head of the request being received, if it is not on its way yet. */
  private writeHead(): void {
    const head = this.pendingHead;
    if (head === null) return;
    this.pendingHead = null;
    if (this.link && !this.link.write(head)) this.pauseClient(this.link);
  }

  private requestComplete(): void {
    const s = this.current;
    if (!s) return;
    this.current = null;
    if (s.link !== null && s.link === this.link) {
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

  /** Asked each HeadTimer tick: a head begun too long ago gets 408 and the connection closes (a slowloris). */
  checkHeadTime(tick: number): void {
    if (this.headTick < 0 || this.stopped || tick - this.headTick < this.ctx.heads.ticks) return;
    this.ctx.logger.debug?.(
      { tap: this.ctx.tap, connection: this.connection },
      "request head not complete in time: 408",
    );
    this.answerAndClose(REQUEST_TIMEOUT);
  }

  private answerAndClose(bytes: Buffer): void {
    this.stopped = true;
    this.queue.push(localSlot(bytes));
    this.pump();
  }

  /** Writes the tap's own answer once every response before it has gone out; then the connection closes. */
  private pump(): void {
    const s = this.queue[0];
    if (!s?.local) return;
    this.queue.length = 0;
    this.client.end(s.local);
    this.dropLink();
  }

  /** The link a new request goes on: the current one, unless the upstream has said (FIN) it is closing an idle one. */
  private linkForRequest(): UpstreamLink {
    const link = this.link;
    if (link !== null && (!link.ended || this.queue.some((s) => s.link === link))) return link;
    this.dropLink();
    return this.connect();
  }

  private connect(): UpstreamLink {
    return (this.link = new UpstreamLink(this.ctx.target, this.ctx.timeoutMs, this));
  }

  private dropLink(): void {
    const link = this.link;
    this.link = null;
    link?.destroy();
  }

  private pauseClient(link: UpstreamLink): void {
    this.pausedBy = link;
    this.client.pause();
  }

  linkDrained(link: UpstreamLink): void {
    if (this.pausedBy !== link) return;
    this.pausedBy = null;
    this.client.resume();
  }

  // --- the upstream's side ---

  upstreamBytes(link: UpstreamLink, bytes: Buffer, arrived: number): void {
    if (link !== this.link || this.closed) return;
    // The bytes go to the client first, as they are; recording works on them after.
    if (!this.client.write(bytes)) link.socket.pause();
    if (this.tunnel) return;
    this.arrived = arrived;
    const err = link.parser.execute(bytes);
    if (err)
      this.failLink(
        link,
        new Error(`the upstream ${this.ctx.upstream} sent a malformed response (${err.reason})`),
        true,
      );
  }

  responseHead(link: UpstreamLink, head: Head): number {
    const s = this.queue[0];
    if (!s || s.local || !s.ex) {
      this.failLink(link, new Error(`the upstream ${this.ctx.upstream} sent a response nobody asked for`), true);
      return NO_BODY;
    }
    if (head.status < 200 && head.status !== 101) {
      s.interim = true;
      return NO_BODY;
    }
    s.started = true;
    this.responseKeepAlive = head.keepAlive;
    this.ctx.reporter.responseStarted(s.ex, head.status, head.headers);
    if (head.status === 101) s.upgraded = true;
    return s.isHead || s.upgraded ? NO_BODY : BODY;
  }

  responseBody(_link: UpstreamLink, bytes: Buffer): void {
    const s = this.queue[0];
    if (s?.ex) this.ctx.reporter.responseChunk(s.ex, bytes, this.arrived);
  }

  responseComplete(link: UpstreamLink): void {
    const s = this.queue[0];
    if (!s?.ex) return;
    if (s.interim) {
      // A 1xx went to the client: a failure now may still be answered 502, but the request is not sent again.
      s.interim = false;
      s.reused = false;
      link.answeredUpTo = link.received;
      return;
    }
    this.queue.shift();
    link.served++;
    link.answeredUpTo = link.received;
    this.ctx.reporter.finish(s.ex, "complete");
    if (s.upgraded) {
      // What follows on both sockets is the new protocol: relayed unparsed until either side closes.
      this.tunnel = true;
      link.parser.stop();
      return;
    }
    if (!s.keepAlive || !this.responseKeepAlive) {
      // Either side said Connection: close (the client saw the upstream's own header): close after it.
      this.stopped = true;
      this.client.end();
      this.dropLink();
      return;
    }
    this.pump();
  }

  linkTimeout(link: UpstreamLink): void {
    // An idle keep-alive link may stay silent; a response that is due may not.
    if (link !== this.link || !this.queue.some((s) => s.ex !== null)) return;
    this.failLink(link, new UpstreamTimeoutError(this.ctx.upstream, this.ctx.timeoutMs), false);
  }

  linkDown(link: UpstreamLink, err: Error | null): void {
    if (link !== this.link) return;
    // A body that runs to the end of the connection ends here.
    if (err === null && !this.tunnel) link.parser.finish();
    if (this.link !== link) return;
    this.link = null;
    if (this.pausedBy === link) this.linkDrained(link);
    if (this.tunnel) {
      this.client.end();
      return;
    }
    if (!this.queue.some((s) => s.ex !== null)) return;
    if (this.retry(link, err)) return;
    // Bytes of its response went to the client as they came (a head cut short too): then only a cut is honest.
    const started = this.queue[0]?.started === true || link.received > link.answeredUpTo;
    const why =
      err ??
      (started
        ? new Error(`the upstream ${this.ctx.upstream} closed the connection mid-response`)
        : Object.assign(new Error(`the upstream ${this.ctx.upstream} closed the connection before answering`), {
            code: "EOF",
          }));
    this.failAll(why, started);
  }

  /** The idle-close race (slot.ts): the request due is sent again on a fresh link, once, when it may be. */
  private retry(link: UpstreamLink, err: Error | null): boolean {
    const s = this.queue[0];
    if (!resendable(s, this.queue.length === 1, link, err)) return false;
    this.ctx.logger.info(
      { tap: this.ctx.tap, upstream: this.ctx.upstream, err: err?.message ?? null },
      "the upstream closed an idle connection as a request was sent: sent again on a new one",
    );
    const fresh = this.connect();
    if (!resend(s, fresh, this.current !== s) && this.current === s) this.pauseClient(fresh);
    return true;
  }

  /** The link can no longer be trusted: every response due on it fails (`cut`: the client's connection too). */
  private failLink(link: UpstreamLink, err: Error, cut: boolean): void {
    if (link === this.link) this.link = null;
    link.destroy();
    if (this.pausedBy === link) this.linkDrained(link);
    this.failAll(err, cut);
  }

  /**
   * Every response due fails, in order: one whose status is on the wire already can only be cut off (the
   * client's connection closes); the others get the 502/504 naming the upstream, and the connection stays.
   */
  private failAll(err: Error, cut: boolean): void {
    const { ctx } = this;
    for (let s = this.queue[0]; s?.ex; s = this.queue[0]) {
      if (s.started || cut) {
        for (const rest of this.queue) if (rest.ex) ctx.reporter.finish(rest.ex, "error", err.message);
        this.queue.length = 0;
        this.stopped = true;
        this.client.destroy();
        return;
      }
      this.queue.shift();
      s.link = null;
      const { status, message } = upstreamFailure(ctx.tap, ctx.upstream, err);
      ctx.logger.warn({ tap: ctx.tap, upstream: ctx.upstream, err: err.message }, "upstream failed");
      const answer = jsonAnswer(status, message, false);
      ctx.reporter.responseStarted(s.ex, status, answer.headers);
      ctx.reporter.responseChunk(s.ex, answer.body);
      this.client.write(answer.bytes);
      ctx.reporter.finish(s.ex, "error", message);
    }
    this.pump();
  }

  private clientClosed(): void {
    this.closed = true;
    this.stopped = true;
    // The client hung up before its responses were complete: stop the upstream's work too.
    for (const s of this.queue) if (s.ex) this.ctx.reporter.finish(s.ex, "aborted", CLIENT_GONE);
    if (this.current?.ex) this.ctx.reporter.finish(this.current.ex, "aborted", CLIENT_GONE);
    this.queue.length = 0;
    this.current = null;
    this.dropLink();
    this.parser.close();
  }
}
