/**
 * The responses due on one client connection of a tap, in the order of its requests (pipelining included),
 * and the upstream link they come back on (request-relay.ts reads the requests and queues them here).
 *
 * Each read from the upstream goes to the client unchanged as it arrives (its arrival time taken first), and
 * only then is it parsed, to tell the recorder where each response starts and ends. What the tap answers
 * itself (a refusal, a 400, a 408) waits in the queue for its turn. A request the upstream dropped as it
 * closed an idle link is sent again once (slot.ts); when a link fails, every response due on it is answered
 * 502/504, or the client's connection is cut once bytes of one have gone out.
 */
import type net from "node:net";
import type { RelayContext } from "./relay-context";
import { BODY, NO_BODY, type Head } from "./llhttp";
import { jsonAnswer } from "./answers";
import { UpstreamTimeoutError, upstreamFailure } from "./upstream-error";
import { UpstreamLink, type LinkOwner } from "./upstream-link";
import { localSlot, resend, resendable, type Slot } from "./slot";

/** The request side of the same connection, as the queue sees it. */
export interface RequestSide {
  /** The request whose body is still arriving, if any. */
  readonly receiving: Slot | null;
  /** Reads no more requests: the connection is closing. */
  stop(): void;
  /** Not reading while the recording thread is behind (its gate resumes the client, not a drained link). */
  readonly held: boolean;
}

export class ResponseQueue implements LinkOwner {
  private readonly slots: Slot[] = [];
  /** The link new requests go on; null until the first request, and after one failed or closed. */
  private active: UpstreamLink | null = null;
  /** The client's connection has closed: nothing more is written to it. */
  private closed = false;
  /** The upstream switched protocols (101): bytes pass both ways unparsed. */
  private switched = false;
  private arrived = 0;
  private responseKeepAlive = true;
  private pausedBy: UpstreamLink | null = null;

  constructor(
    private readonly client: net.Socket,
    private readonly ctx: RelayContext,
    private readonly requests: RequestSide,
  ) {
    client.on("drain", () => this.active?.socket.resume());
  }

  get link(): UpstreamLink | null {
    return this.active;
  }

  /** Bytes pass both ways unparsed (after a 101). */
  get tunnel(): boolean {
    return this.switched;
  }

  /** No response is due. */
  get empty(): boolean {
    return this.slots.length === 0;
  }

  add(slot: Slot): void {
    this.slots.push(slot);
  }

  /** The link a new request goes on: the current one, unless the upstream has said (FIN) it is closing an idle one. */
  linkForRequest(): UpstreamLink {
    const link = this.active;
    if (link !== null && (!link.ended || this.slots.some((s) => s.link === link))) return link;
    this.dropLink();
    return this.connect();
  }

  /** The tap's own answer, sent after every response due before it; then the connection closes. */
  answerAndClose(bytes: Buffer): void {
    this.slots.push(localSlot(bytes));
    this.pump();
  }

  /** A write to `link` was refused for now: no more client bytes are read until it drains. */
  pauseClient(link: UpstreamLink): void {
    this.pausedBy = link;
    this.client.pause();
  }

  /** The client is paused until the upstream drains what was written to it. */
  get waitingForUpstream(): boolean {
    return this.pausedBy !== null;
  }

  linkDrained(link: UpstreamLink): void {
    if (this.pausedBy !== link) return;
    this.pausedBy = null;
    if (!this.requests.held) this.client.resume();
  }

  /** The client hung up: every response still due ends aborted (`why`), and the upstream's work stops. */
  clientClosed(why: string): void {
    this.closed = true;
    for (const s of this.slots) if (s.ex) this.ctx.reporter.finish(s.ex, "aborted", why);
    this.slots.length = 0;
    this.dropLink();
  }

  upstreamBytes(link: UpstreamLink, bytes: Buffer, arrived: number): void {
    if (link !== this.active || this.closed) return;
    // The bytes go to the client first, as they are; recording works on them after.
    if (!this.client.write(bytes)) link.socket.pause();
    if (this.switched) return;
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
    const s = this.slots[0];
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
    const s = this.slots[0];
    if (s?.ex) this.ctx.reporter.responseChunk(s.ex, bytes, this.arrived);
  }

  responseComplete(link: UpstreamLink): void {
    const s = this.slots[0];
    if (!s?.ex) return;
    if (s.interim) {
      // A 1xx went to the client: a failure now may still be answered 502, but the request is not sent again.
      s.interim = false;
      s.reused = false;
      link.answeredUpTo = link.received;
      return;
    }
    this.slots.shift();
    link.served++;
    link.answeredUpTo = link.received;
    this.ctx.reporter.finish(s.ex, "complete");
    if (s.upgraded) {
      // What follows on both sockets is the new protocol: relayed unparsed until either side closes.
      this.switched = true;
      link.parser.stop();
      return;
    }
    if (!s.keepAlive || !this.responseKeepAlive) {
      // Either side said Connection: close (the client saw the upstream's own header): close after it.
      this.requests.stop();
      this.client.end();
      this.dropLink();
      return;
    }
    this.pump();
  }

  linkTimeout(link: UpstreamLink): void {
    // An idle keep-alive link may stay silent; a response that is due may not.
    if (link !== this.active || !this.slots.some((s) => s.ex !== null)) return;
    this.failLink(link, new UpstreamTimeoutError(this.ctx.upstream, this.ctx.timeoutMs), false);
  }

  linkDown(link: UpstreamLink, err: Error | null): void {
    if (link !== this.active) return;
    // A body that runs to the end of the connection ends here.
    if (err === null && !this.switched) link.parser.finish();
    if (this.active !== link) return;
    this.active = null;
    if (this.pausedBy === link) this.linkDrained(link);
    if (this.switched) {
      this.client.end();
      return;
    }
    if (!this.slots.some((s) => s.ex !== null)) return;
    if (this.retry(link, err)) return;
    // Bytes of its response went to the client as they came (a head cut short too): then only a cut is honest.
    const started = this.slots[0]?.started === true || link.received > link.answeredUpTo;
    const why =
      err ??
      (started
        ? new Error(`the upstream ${this.ctx.upstream} closed the connection mid-response`)
        : Object.assign(new Error(`the upstream ${this.ctx.upstream} closed the connection before answering`), {
            code: "EOF",
          }));
    this.failAll(why, started);
  }

  /** Writes the tap's own answer once every response before it has gone out; then the connection closes. */
  private pump(): void {
    const s = this.slots[0];
    if (!s?.local) return;
    this.slots.length = 0;
    this.client.end(s.local);
    this.dropLink();
  }

  private connect(): UpstreamLink {
    return (this.active = new UpstreamLink(this.ctx.target, this.ctx.timeoutMs, this));
  }

  private dropLink(): void {
    const link = this.active;
    this.active = null;
    link?.destroy();
  }

  /** The idle-close race (slot.ts): the request due is sent again on a fresh link, once, when it may be. */
  private retry(link: UpstreamLink, err: Error | null): boolean {
    const s = this.slots[0];
    if (!resendable(s, this.slots.length === 1, link, err)) return false;
    this.ctx.logger.info(
      { tap: this.ctx.tap, upstream: this.ctx.upstream, err: err?.message ?? null },
      "the upstream closed an idle connection as a request was sent: sent again on a new one",
    );
    const fresh = this.connect();
    const receiving = this.requests.receiving === s;
    if (!resend(s, fresh, !receiving) && receiving) this.pauseClient(fresh);
    return true;
  }

  /** The link can no longer be trusted: every response due on it fails (`cut`: the client's connection too). */
  private failLink(link: UpstreamLink, err: Error, cut: boolean): void {
    if (link === this.active) this.active = null;
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
    for (let s = this.slots[0]; s?.ex; s = this.slots[0]) {
      if (s.started || cut) {
        for (const rest of this.slots) if (rest.ex) ctx.reporter.finish(rest.ex, "error", err.message);
        this.slots.length = 0;
        this.requests.stop();
        this.client.destroy();
        return;
      }
      this.slots.shift();
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
}
