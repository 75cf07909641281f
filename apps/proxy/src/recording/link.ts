/**
 * The forwarding thread's side of the recording thread: tap events are batched (one message per turn of
 * the event loop, bytes copied once into a transferred arena), and calls (the API's reads and writes) are
 * answered by promise, after everything sent before them. Nothing here ever waits synchronously.
 *
 * The queue to the recording thread is bounded: when the thread falls this far behind (a locked database,
 * a burst it cannot keep up with), new exchanges are forwarded but not recorded, reported in StorageHealth,
 * until it catches up.
 */
import { Worker } from "node:worker_threads";
import type { StorageHealth } from "@hopscope/shared/trace/api";
import type { Logger } from "../logger";
import type { AnnouncedFrames, Call, FromThread, Span, TapEvent, ToThread } from "./protocol";
import type { ThreadData } from "./thread";

/** Sent to the recording thread and not yet handled: beyond either bound, new exchanges are not recorded. */
export const QUEUE_LIMITS = { events: 50_000, bytes: 64 * 1024 * 1024 };
export type QueueLimits = typeof QUEUE_LIMITS;
const LAST_NOT_STORED = 20;
/** Events are sent in batches, at least this often (the live feed lags by as much), or at this many. */
const BATCH_MS = 5;
const BATCH_EVENTS = 2048;

export interface LinkHandlers {
  announce: (frames: AnnouncedFrames) => void;
  committed: (traceIds: string[]) => void;
}

export class RecordingLink {
  private events: TapEvent[] = [];
  private parts: Buffer[] = [];
  private partBytes = 0;
  private scheduled = false;
  private timer: NodeJS.Timeout | null = null;
  private batch = 0;
  private readonly unacked = new Map<number, { events: number; bytes: number }>();
  private queuedEvents = 0;
  private queuedBytes = 0;
  private behind = false;
  private calls = 0;
  private readonly pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  private threadHealth: StorageHealth = { ok: true, error: null, since: null, notStored: 0, lastNotStored: [] };
  private readonly dropped = { count: 0, last: [] as number[], since: null as number | null };
  private dead: string | null = null;
  private closing: Promise<void> | null = null;
  private readonly worker: Worker;
  readonly ready: Promise<number>;

  constructor(
    data: ThreadData,
    private readonly handlers: LinkHandlers,
    private readonly logger: Logger,
    private readonly limits: QueueLimits = QUEUE_LIMITS,
  ) {
    // The boot file registers the TypeScript loader itself; profiling flags (bench/profile.ts) carry over.
    const execArgv = process.execArgv.filter((a) => a.startsWith("--cpu-prof") || a.startsWith("--heap-prof"));
    this.worker = new Worker(new URL("./thread.boot.mjs", import.meta.url), { workerData: data, execArgv });
    let readyResolve: (maxId: number) => void = () => {};
    let readyReject: (err: Error) => void = () => {};
    this.ready = new Promise<number>((resolve, reject) => ((readyResolve = resolve), (readyReject = reject)));
    this.worker.on("message", (msg: FromThread) => {
      if (msg.kind === "ready") readyResolve(msg.maxExchangeId);
      else this.receive(msg);
    });
    this.worker.on("error", (err) => {
      readyReject(err);
      this.died(`the recording thread failed: ${err.message}`, err);
    });
    this.worker.on("exit", (code) => {
      readyReject(new Error(`the recording thread exited (code ${code}) before it was ready`));
      if (!this.closing) this.died(`the recording thread exited (code ${code})`);
    });
  }

  /** False while the thread is too far behind (or gone): the exchange is then forwarded but not recorded. */
  accepting(): boolean {
    if (this.dead) return false;
    this.checkBehind();
    return !this.behind;
  }

  private checkBehind(): void {
    const { events, bytes } = this.limits;
    // Hysteresis: once behind, recording restarts when half the queue has drained, not at the first slot free.
    if (this.behind && this.queuedEvents < events / 2 && this.queuedBytes < bytes / 2) this.behind = false;
    if (!this.behind && (this.queuedEvents >= events || this.queuedBytes >= bytes)) this.behind = true;
  }

  /** Counts an exchange forwarded but not recorded (not accepted at its start). */
  notRecorded(id: number): void {
    this.dropped.count++;
    this.dropped.last = [...this.dropped.last.slice(1 - LAST_NOT_STORED), id];
    this.dropped.since ??= Date.now();
  }

  /** Bytes for an event of the batch being built (copied into the arena when the batch is sent). */
  span(bytes: Buffer): Span {
    const span: Span = [this.partBytes, bytes.length];
    this.parts.push(bytes);
    this.partBytes += bytes.length;
    return span;
  }

  send(event: TapEvent): void {
    if (this.dead) return;
    this.events.push(event);
    if (this.events.length >= BATCH_EVENTS) this.flush();
    else if (!this.scheduled) {
      this.scheduled = true;
      // Batched for BATCH_MS: one message (and one wake-up of the recording thread) per batch, not per
      // event; the bytes went to the client before recording sees them.
      this.timer = setTimeout(() => this.flush(), BATCH_MS);
    }
  }

  call(request: Call): Promise<unknown> {
    if (this.dead) return Promise.reject(new Error(this.dead));
    this.flush();
    const call = ++this.calls;
    return new Promise((resolve, reject) => {
      this.pending.set(call, { resolve, reject });
      this.post({ kind: "call", call, request });
    });
  }

  health(): StorageHealth {
    this.checkBehind();
    const t = this.threadHealth;
    const d = this.dropped;
    const behind = this.dead ?? (this.behind ? `the recorder is behind (${this.queuedEvents} events, ${(this.queuedBytes / 1048576).toFixed(1)} MiB queued): new exchanges are forwarded but not recorded until it catches up` : null);
    if (!behind && d.since !== null) d.since = null;
    const since = [t.since, d.since].filter((x): x is number => x !== null);
    return {
      ok: t.ok && behind === null,
      error: behind ?? t.error,
      since: since.length > 0 ? Math.min(...since) : null,
      notStored: t.notStored + d.count,
      lastNotStored: [...t.lastNotStored, ...d.last].sort((a, b) => a - b).slice(-LAST_NOT_STORED),
    };
  }

  close(): Promise<void> {
    this.closing ??= (async () => {
      this.flush();
      if (this.dead) return void (await this.worker.terminate());
      const closed = new Promise<void>((resolve) => this.worker.once("exit", () => resolve()));
      this.post({ kind: "close" });
      await closed;
    })();
    return this.closing;
  }

  private flush(): void {
    this.scheduled = false;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.events.length === 0 || this.dead) return;
    let arena: ArrayBuffer | null = null;
    if (this.partBytes > 0) {
      arena = new ArrayBuffer(this.partBytes);
      const view = new Uint8Array(arena);
      let offset = 0;
      for (const p of this.parts) {
        view.set(p, offset);
        offset += p.length;
      }
    }
    const batch = ++this.batch;
    const size = { events: this.events.length, bytes: this.partBytes };
    this.unacked.set(batch, size);
    this.queuedEvents += size.events;
    this.queuedBytes += size.bytes;
    const msg: ToThread = { kind: "events", batch, events: this.events, arena };
    this.events = [];
    this.parts = [];
    this.partBytes = 0;
    this.worker.postMessage(msg, arena ? [arena] : []);
  }

  private post(msg: ToThread): void {
    this.worker.postMessage(msg);
  }

  private receive(msg: Exclude<FromThread, { kind: "ready" }>): void {
    switch (msg.kind) {
      case "ack": {
        const size = this.unacked.get(msg.batch);
        this.unacked.delete(msg.batch);
        if (size) {
          this.queuedEvents -= size.events;
          this.queuedBytes -= size.bytes;
        }
        return;
      }
      case "announce":
        return this.handlers.announce(msg.frames);
      case "committed":
        return this.handlers.committed(msg.traceIds);
      case "storage":
        if (msg.health.ok !== this.threadHealth.ok) {
          this.logger[msg.health.ok ? "info" : "error"]({ storage: msg.health }, msg.health.ok ? "recording to SQLite works again" : "recording to SQLite failed; exchanges are forwarded but not stored");
        }
        this.threadHealth = msg.health;
        return;
      case "reply": {
        const p = this.pending.get(msg.call);
        this.pending.delete(msg.call);
        if (msg.error !== undefined) p?.reject(new Error(msg.error));
        else p?.resolve(msg.result);
        return;
      }
      case "error":
        return this.logger.error({ err: msg.message }, "recording an exchange failed (a hopscope bug); forwarding is unaffected");
      case "closed":
        return;
    }
  }

  private died(message: string, err?: Error): void {
    if (this.dead) return;
    this.dead = message;
    this.logger.error({ err }, `${message}; exchanges are forwarded but no longer recorded`);
    for (const p of this.pending.values()) p.reject(new Error(message));
    this.pending.clear();
  }
}
