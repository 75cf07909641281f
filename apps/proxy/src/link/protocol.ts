/**
 * The messages between hopscope's three threads:
 *   taps thread (tap/thread.ts): the three taps, forwarding bytes; sends tap events to the recording thread.
 *   recording thread (recording/thread.ts): the Recorder and SQLite; answers the API's calls, announces frames.
 *   main thread (server.ts): the API, the live feed and replays.
 * Plain data, structured-cloned. Tap events travel in batches, packed (link/event-codec.ts), with their
 * bytes in one transferred arena (offsets into it), so a batch costs one copy of its bytes and one
 * postMessage however many events it has.
 */
import type { MessagePort } from "node:worker_threads";
import type { ExchangeState, Tap } from "@hopscope/shared/trace/schemas";
import type { GuardPolicy } from "@hopscope/nodekit/guard";
import type { StorageHealth } from "@hopscope/shared/trace/api";
import type { Call } from "./calls";

/** The live feed shows a chunk's text up to this size (bigger chunks: fetch the exchange). */
export const MAX_CHUNK_TEXT = 64 * 1024;

/** Bytes in the batch's arena: [offset, length]. */
export type Span = [number, number];

/**
 * What a tap saw, in order. `id` is the taps thread's own number for the exchange (the recorder gives it
 * its exchange id). Times are epoch ms (fractional).
 */
export type TapEvent =
  | {
      k: "begin";
      id: number;
      tap: Tap;
      method: string;
      url: string;
      upstream: string;
      /** As received (with the tap's own additions), as a header block (shared/trace/header-block.ts); the recorder redacts them. */
      headers: string;
      /** The client socket (remote address:port) the request came on. */
      connection: string | null;
      start: number;
    }
  /** The request is complete (or cut off: `at` null): its kept bytes (up to the cap) and its full size. */
  | { k: "request"; id: number; parts: Span[]; size: number; at: number | null }
  | { k: "response"; id: number; status: number; headers: string }
  /**
   * `t`: ms since start; `bytes`: the kept part of the chunk (null once the cap is reached); `text`: the whole
   * chunk when it is not kept whole but small enough for the live feed's text (MAX_CHUNK_TEXT).
   */
  | { k: "chunk"; id: number; t: number; size: number; bytes: Span | null; text?: Span }
  | { k: "end"; id: number; state: Exclude<ExchangeState, "pending" | "streaming">; error: string | null; at: number };

/** Taps thread → recording thread (over their own channel), and the recording thread's acknowledgement. */
export interface EventBatch {
  batch: number;
  /** The events, packed (link/event-codec.ts): `count` of them in `nums` (transferred) and `strs`. */
  count: number;
  nums: Float64Array;
  strs: (string | null)[];
  arena: ArrayBuffer | null;
}
/** A batch handled: the taps thread's count of what is queued drops, and a closed gate may open (backpressure). */
export interface EventAck {
  ack: number;
}

export type ToRecording =
  | { kind: "call"; call: number; request: Call }
  /**
   * A subscriber (the live feed, the audience view) has its first client, or has none left: frames are
   * serialised while anyone is subscribed, otherwise parked (recording/parked-frames.ts).
   */
  | { kind: "subscribe" }
  | { kind: "unsubscribe" }
  | { kind: "close" };

/**
 * Frames the recorder announced since the last message, in order: serialised ones (someone watches) as
 * strings; parked ones (nobody watching) as their park number, which is all the main thread keeps of them.
 */
export type AnnouncedFrames = (string | number)[];

/**
 * AnnouncedFrames as the recording thread posts them: a run of parked frames is its length, since park
 * numbers go up by one from 1 (parked-frames.ts); the main thread numbers them again (threads.ts). Posting
 * one number per parked frame, three per exchange, would be a cost on the recording thread's every exchange.
 */
export type AnnouncedRuns = (string | number)[];

export type FromRecording =
  | { kind: "ready" }
  | { kind: "announce"; frames: AnnouncedRuns }
  /** Committed: traces touched (and deleted by retention): the main thread announces trace.updated. */
  | { kind: "committed"; traceIds: string[] }
  | { kind: "storage"; health: StorageHealth }
  | { kind: "reply"; call: number; result?: unknown; error?: string }
  /** Recording one event failed (a hopscope bug): logged by the main thread. */
  | { kind: "error"; message: string }
  | { kind: "closed" };

/** How far behind the recording thread is, as the taps thread sees it (exchanges it could not record). */
export interface QueueState {
  behind: string | null;
  since: number | null;
  notRecorded: number;
  lastNotRecorded: number[];
  lastNotRecordedAt: number | null;
  /** Times the gate closed: the taps stopped reading new requests until recording caught up. */
  held: number;
}

/** The queue's state at start: not behind, nothing lost, never held. */
export function initialQueueState(): QueueState {
  return { behind: null, since: null, notRecorded: 0, lastNotRecorded: [], lastNotRecordedAt: null, held: 0 };
}

export interface TapInfoMessage {
  tap: Tap;
  upstream: string;
  port: number;
  url: string;
}

export type FromTaps =
  | { kind: "ready"; taps: TapInfoMessage[] }
  | { kind: "failed"; error: string }
  | { kind: "queue"; state: QueueState }
  | { kind: "log"; level: "debug" | "info" | "warn" | "error"; obj: Record<string, unknown>; msg: string }
  /** Every event seen before the flush request has been sent to the recording thread. */
  | { kind: "flushed"; flush: number }
  | { kind: "closed" };

export type ToTaps = { kind: "flush"; flush: number } | { kind: "close" };

/** Bounds on what the taps thread sends the recording thread and is not yet acknowledged (tap/event-sender.ts). */
/**
 * The queue to the recording thread (events sent, not yet acknowledged): beyond `pauseAt` (default: a
 * quarter of the cap; 16 MiB, a few hundred agent-sized requests) the taps stop reading new requests until
 * half of it has drained (tap/recording-gate.ts); beyond `events` or `bytes`, the hard cap, new exchanges
 * are forwarded but not recorded, and counted (health is not ok).
 */
export interface QueueLimits {
  events: number;
  bytes: number;
  pauseAt?: { events: number; bytes: number };
}

/** The workerData of the recording thread (recording/thread.ts). */
export interface RecordingThreadData {
  entry: string;
  threadName: string;
  file: string;
  maxBodyBytes: number;
  flushIntervalMs: number;
  maxTraces: number;
  /** The channel from the taps thread. */
  events: MessagePort;
}

/** The workerData of the taps thread (tap/thread.ts). */
export interface TapsThreadData {
  entry: string;
  threadName: string;
  host: string;
  taps: { tap: Tap; upstream: string; port: number }[];
  timeoutMs: number;
  headersTimeoutMs: number;
  guard: GuardPolicy;
  maxBodyBytes: number;
  queueLimits?: QueueLimits;
  /** The channel to the recording thread. */
  events: MessagePort;
}
