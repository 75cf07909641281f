/**
 * The live feed: a WebSocket endpoint (`/ws` on UI_PORT) that sends a `snapshot`, then every recorder
 * event as a numbered frame (ServerFrameSchema). A client may send `resume {since}` after reconnecting
 * to get what it missed from the ring (or a fresh snapshot when that is too old).
 *
 * Slow or dead clients never hold anything up: sends are fire-and-forget, a client whose unsent bytes
 * exceed `maxBufferedBytes` is terminated (it reconnects and resumes), and a heartbeat ping terminates
 * clients that stop answering.
 */
import type { IncomingMessage, Server } from "node:http";
import type { Duplex } from "node:stream";
import { WebSocketServer, type WebSocket } from "ws";
import { ClientFrameSchema, ServerFrameSchema, type ServerFrame } from "@hopscope/shared/trace/schemas";
import type { AnyEvent, FeedEvent } from "../../link/frames";
import { FrameRing, materialise, type RingEntry } from "./ring";
import { checkIncoming, type GuardPolicy } from "@hopscope/nodekit/guard";
import { parseJson } from "@hopscope/shared/json/parse";
import type { Logger } from "../../logger";
import { subscriptionWhile, type Subscribe } from "./subscription";
import { formatZodIssues } from "@hopscope/shared/json/zod-error";

export interface FeedOptions {
  maxBufferedBytes: number;
  heartbeatMs?: number;
  /** Builds the snapshot frame's content (traces and in-flight exchanges). */
  snapshot: () => Promise<Omit<Extract<ServerFrame, { type: "snapshot" }>, "type" | "seq">>;
  logger: Logger;
  /** The API's request guard: the feed reads every recorded exchange, so Host and Origin are checked the same way. */
  guard: GuardPolicy;
  /**
   * Fetches parked frames (serialised, without seq) from the recording thread by their park numbers; null
   * for one it no longer holds.
   */
  parked: (parks: number[]) => Promise<(string | null)[]>;
  /** Subscribes to the recording thread's serialised frames; the feed holds it while it has a client. */
  subscribe: Subscribe;
}

export class LiveFeed {
  private seq = 0;
  private readonly ring = new FrameRing();
  private readonly wss = new WebSocketServer({ noServer: true, maxPayload: 64 * 1024 });
  private readonly alive = new WeakSet<WebSocket>();
  /**
   * Clients whose snapshot (or resume) is being built: frames published meanwhile are in it, so they are not
   * sent to them.
   */
  private readonly building = new Map<WebSocket, Promise<void>>();
  private readonly heartbeat: NodeJS.Timeout;
  private readonly subscribed: (wanted: boolean) => void;

  constructor(private readonly opts: FeedOptions) {
    this.subscribed = subscriptionWhile(opts.subscribe);
    this.wss.on("connection", (ws) => this.onConnection(ws));
    this.heartbeat = setInterval(() => this.ping(), opts.heartbeatMs ?? 15_000);
    this.heartbeat.unref();
  }

  get clientCount(): number {
    return this.wss.clients.size;
  }

  get currentSeq(): number {
    return this.seq;
  }

  /** Handles upgrades on `path` only; other paths, and foreign origins, are refused. */
  attach(server: Server, path = "/ws"): void {
    server.on("upgrade", (req: IncomingMessage, socket: Duplex, head: Buffer) => {
      const url = new URL(req.url ?? "/", "http://localhost");
      if (url.pathname !== path) return reject(socket, 404, `no WebSocket endpoint at ${url.pathname}; use ${path}`);
      const refusal = checkIncoming(req, this.opts.guard);
      if (refusal) return reject(socket, refusal.status, refusal.message);
      this.wss.handleUpgrade(req, socket, head, (ws) => this.wss.emit("connection", ws, req));
    });
  }

  /**
   * Numbers and sends an event. Frames are built by the recorder from its own typed objects, so they are
   * not re-validated here (that cost more than forwarding the exchange); clients validate what they read.
   * With no client connected a serialised event stays unnumbered in the ring until a resume asks for it.
   */
  publish(event: AnyEvent): void {
    const seq = ++this.seq;
    if ("park" in event) {
      // Parked while nobody was subscribed: a client that connected since is still building its snapshot
      // (its subscription reached the recording thread before its snapshot call), which includes it.
      this.ring.push({ seq, size: event.size, park: event.park });
      return;
    }
    if ("json" in event && this.wss.clients.size === 0) {
      this.ring.push({ seq, size: event.size, build: () => withSeq(event.json(), seq) });
      return;
    }
    const data = "json" in event ? withSeq(event.json(), seq) : serialise(event, seq);
    this.ring.push({ seq, data, size: data.length });
    for (const ws of this.wss.clients) if (!this.building.has(ws)) this.send(ws, data);
  }

  close(): void {
    clearInterval(this.heartbeat);
    for (const ws of this.wss.clients) ws.terminate();
    this.wss.close();
  }

  private onConnection(ws: WebSocket): void {
    this.alive.add(ws);
    ws.on("pong", () => this.alive.add(ws));
    ws.on("error", (err) => this.opts.logger.warn({ err: err.message }, "live feed client error"));
    ws.on("message", (raw) => this.onMessage(ws, raw.toString()));
    ws.on("close", () => this.subscribed(this.wss.clients.size > 0));
    // Before the snapshot's call: the recording thread serialises every frame after the snapshot's read.
    this.subscribed(true);
    this.sendSnapshot(ws);
  }

  private onMessage(ws: WebSocket, text: string): void {
    const building = this.building.get(ws);
    if (building) return void building.then(() => this.onMessage(ws, text));
    let json: unknown;
    try {
      json = parseJson(text);
    } catch (err) {
      return this.sendError(
        ws,
        `frame is not JSON (${(err as Error).message}); send {"type":"resume","since":<seq>} or {"type":"ping"}`,
      );
    }
    const parsed = ClientFrameSchema.safeParse(json);
    if (!parsed.success) {
      return this.sendError(ws, `unknown frame: ${formatZodIssues(parsed.error, { whole: "frame" })}`);
    }
    const frame = parsed.data;
    switch (frame.type) {
      case "ping":
        return;
      case "resume":
        return this.resume(ws, frame.since);
      default:
        return assertNever(frame);
    }
  }

  /**
   * The snapshot reads the store, which first awaits the recording thread's commit; the frame takes the seq
   * of that moment (nothing is published between the read and the frame), and frames published while it was
   * built are in it.
   */
  private sendSnapshot(ws: WebSocket): void {
    const built = this.opts.snapshot().then(
      (content) => {
        this.building.delete(ws);
        const frame: ServerFrame = { type: "snapshot", seq: this.seq, ...content };
        this.send(ws, JSON.stringify(ServerFrameSchema.parse(frame)));
      },
      (err: unknown) => {
        this.building.delete(ws);
        this.opts.logger.error({ err }, "live feed snapshot failed; closing the client (it reconnects)");
        ws.close(1011, "snapshot failed");
      },
    );
    this.building.set(ws, built);
  }

  /**
   * Sends the frames after `since` from the ring, fetching the parked ones from the recording thread first;
   * frames published meanwhile are in the ring and go out with them, in order. A snapshot instead when some
   * are no longer kept.
   */
  private resume(ws: WebSocket, since: number): void {
    const done = this.missedSince(since).then(
      (missed) => {
        this.building.delete(ws);
        if (missed === null) return this.sendSnapshot(ws);
        for (const data of missed) this.send(ws, data);
      },
      (err: unknown) => {
        this.building.delete(ws);
        this.opts.logger.error({ err }, "live feed resume failed; sending a snapshot instead");
        this.sendSnapshot(ws);
      },
    );
    this.building.set(ws, done);
  }

  private async missedSince(since: number): Promise<string[] | null> {
    for (;;) {
      const entries = this.ring.entriesSince(since, this.seq);
      if (entries === null) return null;
      const parked = entries.filter(
        (e): e is RingEntry & { park: number } => e.data === undefined && e.build === undefined && e.park !== undefined,
      );
      // Synchronous from here to the send: nothing published in between is left out.
      if (parked.length === 0) return entries.map(materialise);
      const got = await this.opts.parked(parked.map((e) => e.park));
      for (const [i, e] of parked.entries()) {
        const json = got[i];
        if (json === null || json === undefined) return null;
        e.data = withSeq(json, e.seq);
      }
    }
  }

  private sendError(ws: WebSocket, message: string): void {
    this.send(ws, JSON.stringify({ type: "error", seq: this.seq, message } satisfies ServerFrame));
  }

  private send(ws: WebSocket, data: string): void {
    if (ws.readyState !== ws.OPEN) return;
    if (ws.bufferedAmount > this.opts.maxBufferedBytes) {
      // Too far behind: holding more for it would grow memory without bound. It can reconnect and resume.
      this.opts.logger.warn({ bufferedAmount: ws.bufferedAmount }, "live feed client too slow; disconnecting it");
      ws.terminate();
      return;
    }
    ws.send(data);
  }

  private ping(): void {
    for (const ws of this.wss.clients) {
      if (!this.alive.has(ws)) {
        ws.terminate();
        continue;
      }
      this.alive.delete(ws);
      ws.ping();
    }
  }
}

function serialise(event: FeedEvent, seq: number): string {
  return JSON.stringify({ ...event, seq } satisfies ServerFrame);
}

/** A serialised frame (a JSON object) with its seq added last, as serialise() would put it. */
function withSeq(json: string, seq: number): string {
  return `${json.slice(0, -1)},"seq":${seq}}`;
}

function reject(socket: Duplex, status: number, message: string): void {
  const body = JSON.stringify({ error: message });
  socket.end(
    `HTTP/1.1 ${status} ${status === 403 ? "Forbidden" : "Not Found"}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

function assertNever(x: never): never {
  throw new Error(`unhandled client frame ${JSON.stringify(x)}`);
}
