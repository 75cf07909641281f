/**
 * Starts and talks to hopscope's two worker threads from the main thread (API, live feed): the taps
 * thread (tap/thread.ts) and the recording thread (recording/thread.ts), joined by their own channel for tap events.
 * Calls to the recording thread are answered by promise, after every event the taps had seen when the call
 * was made (the taps thread is asked to send what it holds first). Nothing here waits synchronously.
 */
import { MessageChannel, Worker } from "node:worker_threads";
import type { StorageHealth } from "@hopscope/shared/trace/api";
import type { Tap } from "@hopscope/shared/trace/schemas";
import type { GuardPolicy } from "@hopscope/nodekit/guard";
import type { CallArgs, CallName, CallResult, RecordingLink } from "./calls";
import type { Logger } from "../logger";
import type {
  AnnouncedFrames,
  AnnouncedRuns,
  FromRecording,
  FromTaps,
  QueueLimits,
  QueueState,
  RecordingThreadData,
  TapInfoMessage,
  TapsThreadData,
  ToRecording,
  ToTaps,
} from "./protocol";
import { initialQueueState } from "./protocol";

export interface ThreadsOptions {
  file: string;
  maxBodyBytes: number;
  flushIntervalMs: number;
  maxTraces: number;
  host: string;
  taps: { tap: Tap; upstream: string; port: number }[];
  timeoutMs: number;
  headersTimeoutMs: number;
  /** The request guard the taps run on each client request before forwarding. */
  guard: GuardPolicy;
  queueLimits?: QueueLimits;
}

export interface ThreadHandlers {
  announce: (frames: AnnouncedFrames) => void;
  committed: (traceIds: string[]) => void;
}

type ToRecordingCall = Extract<ToRecording, { kind: "call" }>["request"];

const BOOT = new URL("./boot.mjs", import.meta.url);

export class ThreadLink implements RecordingLink {
  private calls = 0;
  private readonly pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  private flushes = 0;
  /** The park number of the next parked frame announced (the recording thread numbers them from 1). */
  private nextPark = 1;
  private readonly flushWaiters = new Map<number, () => void>();
  private storage: StorageHealth = { ok: true, error: null, since: null, notStored: 0, lastNotStored: [] };
  private queue: QueueState = initialQueueState();
  private dead: string | null = null;
  private closing: Promise<void> | null = null;
  private readonly recording: Worker;
  private readonly tapsWorker: Worker;
  /** The taps as they listen, once both threads are up. */
  readonly ready: Promise<TapInfoMessage[]>;

  constructor(
    opts: ThreadsOptions,
    private readonly handlers: ThreadHandlers,
    private readonly logger: Logger,
  ) {
    const channel = new MessageChannel();
    // Profiling flags (bench/profile.ts) carry over; the boot file registers the TypeScript loader itself
    // when the thread's module is TypeScript (from source; the built proxy names its bundled .js files).
    const execArgv = process.execArgv.filter((a) => a.startsWith("--cpu-prof") || a.startsWith("--heap-prof"));
    const recordingData: RecordingThreadData = {
      entry: new URL("../recording/thread.ts", import.meta.url).href,
      threadName: "hs-recording",
      file: opts.file,
      maxBodyBytes: opts.maxBodyBytes,
      flushIntervalMs: opts.flushIntervalMs,
      maxTraces: opts.maxTraces,
      events: channel.port1,
    };
    this.recording = new Worker(BOOT, { workerData: recordingData, transferList: [channel.port1], execArgv });
    const recordingReady = new Promise<void>((resolve, reject) => {
      this.recording.on("message", (msg: FromRecording) =>
        msg.kind === "ready" ? resolve() : this.fromRecording(msg),
      );
      this.watch(this.recording, "recording", reject);
    });
    const tapsData: TapsThreadData = {
      entry: new URL("../tap/thread.ts", import.meta.url).href,
      threadName: "hs-taps",
      host: opts.host,
      taps: opts.taps,
      timeoutMs: opts.timeoutMs,
      headersTimeoutMs: opts.headersTimeoutMs,
      guard: opts.guard,
      maxBodyBytes: opts.maxBodyBytes,
      events: channel.port2,
      ...(opts.queueLimits ? { queueLimits: opts.queueLimits } : {}),
    };
    this.tapsWorker = new Worker(BOOT, { workerData: tapsData, transferList: [channel.port2], execArgv });
    const tapsReady = new Promise<TapInfoMessage[]>((resolve, reject) => {
      this.tapsWorker.on("message", (msg: FromTaps) => {
        if (msg.kind === "ready") resolve(msg.taps);
        else if (msg.kind === "failed") reject(new Error(msg.error));
        else this.fromTaps(msg);
      });
      this.watch(this.tapsWorker, "taps", reject);
    });
    this.ready = Promise.all([recordingReady, tapsReady]).then(([, taps]) => taps);
  }

  /** Asks the recording thread, after every event the taps have seen so far. */
  async call<M extends CallName>(method: M, ...args: CallArgs<M>): Promise<CallResult<M>> {
    if (this.dead) throw new Error(this.dead);
    await this.tapsFlushed();
    const call = ++this.calls;
    // The recording thread answers each call with what its implementation of RecordingCalls[M] returned.
    const answer = new Promise<unknown>((resolve, reject) => {
      this.pending.set(call, { resolve, reject });
      const request = { method, args } as ToRecordingCall;
      this.recording.postMessage({ kind: "call", call, request } satisfies ToRecording);
    });
    return answer as Promise<CallResult<M>>;
  }

  /**
   * Subscribes to serialised frames until the returned function is called: a subscriber with no client to
   * send them to unsubscribes, and the recording thread parks frames while nobody is subscribed.
   */
  subscribe(): () => void {
    const post = (msg: ToRecording) => {
      if (!this.dead && !this.closing) this.recording.postMessage(msg);
    };
    post({ kind: "subscribe" });
    let subscribed = true;
    return () => {
      if (subscribed) post({ kind: "unsubscribe" });
      subscribed = false;
    };
  }

  /** Storage health as /api/health reports it: the disk (recording thread) and the queue (taps thread). */
  health(): StorageHealth {
    const s = this.storage;
    const q = this.queue;
    const behind = this.dead ?? q.behind;
    const since = [s.since, q.since].filter((x): x is number => x !== null);
    return {
      ok: s.ok && behind === null,
      error: behind ?? s.error,
      since: since.length > 0 ? Math.min(...since) : null,
      notStored: s.notStored + q.notRecorded,
      lastNotStored: [...s.lastNotStored, ...q.lastNotRecorded].sort((a, b) => a - b).slice(-20),
      lastNotStoredAt: Math.max(s.lastNotStoredAt ?? 0, q.lastNotRecordedAt ?? 0) || null,
      held: q.held,
    };
  }

  /** Closes the taps (their last events reach the recording thread), then the recording thread. */
  close(): Promise<void> {
    this.closing ??= (async () => {
      await stop(this.tapsWorker, { kind: "close" } satisfies ToTaps);
      await stop(this.recording, { kind: "close" } satisfies ToRecording);
    })();
    return this.closing;
  }

  private tapsFlushed(): Promise<void> {
    const flush = ++this.flushes;
    return new Promise((resolve) => {
      this.flushWaiters.set(flush, resolve);
      this.tapsWorker.postMessage({ kind: "flush", flush } satisfies ToTaps);
    });
  }

  private fromTaps(msg: Exclude<FromTaps, { kind: "ready" | "failed" }>): void {
    switch (msg.kind) {
      case "flushed":
        for (const [n, resolve] of this.flushWaiters) {
          if (n > msg.flush) break;
          this.flushWaiters.delete(n);
          resolve();
        }
        return;
      case "queue":
        if ((msg.state.behind === null) !== (this.queue.behind === null))
          this.logger.warn({ queue: msg.state }, msg.state.behind ?? "the recorder caught up; recording again");
        this.queue = msg.state;
        return;
      case "log": {
        // A logger without debug drops debug lines (as the taps' own calls `logger.debug?.(…)` would).
        const log = this.logger[msg.level];
        return log?.call(this.logger, msg.obj, msg.msg);
      }
      case "closed":
        return;
    }
  }

  /** The runs of parked frames back to their park numbers (consecutive from 1, see AnnouncedRuns). */
  private parkNumbers(runs: AnnouncedRuns): AnnouncedFrames {
    const out: AnnouncedFrames = [];
    for (const r of runs) {
      if (typeof r === "string") out.push(r);
      else for (let i = 0; i < r; i++) out.push(this.nextPark++);
    }
    return out;
  }

  private fromRecording(msg: Exclude<FromRecording, { kind: "ready" }>): void {
    switch (msg.kind) {
      case "announce":
        return this.handlers.announce(this.parkNumbers(msg.frames));
      case "committed":
        return this.handlers.committed(msg.traceIds);
      case "storage":
        if (msg.health.ok !== this.storage.ok) {
          this.logger[msg.health.ok ? "info" : "error"](
            { storage: msg.health },
            msg.health.ok
              ? "recording to SQLite works again"
              : "recording to SQLite failed; exchanges are forwarded but not stored",
          );
        }
        this.storage = msg.health;
        return;
      case "reply": {
        const p = this.pending.get(msg.call);
        this.pending.delete(msg.call);
        if (msg.error !== undefined) p?.reject(new Error(msg.error));
        else p?.resolve(msg.result);
        return;
      }
      case "error":
        return this.logger.error(
          { err: msg.message },
          "recording an exchange failed (a hopscope bug); forwarding is unaffected",
        );
      case "closed":
        return;
    }
  }

  private watch(worker: Worker, name: string, notReady: (err: Error) => void): void {
    worker.on("error", (err) => {
      notReady(err);
      this.died(`the ${name} thread failed: ${err.message}`, err);
    });
    worker.on("exit", (code) => {
      notReady(new Error(`the ${name} thread exited (code ${code}) before it was ready`));
      if (!this.closing) this.died(`the ${name} thread exited (code ${code})`);
    });
  }

  private died(message: string, err?: Error): void {
    if (this.dead) return;
    this.dead = message;
    this.logger.error({ err }, `${message}; exchanges are no longer recorded`);
    for (const p of this.pending.values()) p.reject(new Error(message));
    this.pending.clear();
    for (const resolve of this.flushWaiters.values()) resolve();
    this.flushWaiters.clear();
  }
}

/** Asks a worker to close and waits for it to exit (at once when it has exited already). */
function stop(worker: Worker, msg: ToTaps | ToRecording): Promise<void> {
  if (worker.threadId === -1) return Promise.resolve();
  return new Promise((resolve) => {
    worker.once("exit", () => resolve());
    worker.postMessage(msg);
  });
}
