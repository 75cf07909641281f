/**
 * The recording thread: the Recorder and the store (its one writer, and the API's reads), fed batches of
 * tap events by the taps thread over their own channel, and calls by the main thread. Grouping,
 * classification, record building and SQLite all run here, beside forwarding, never on it. Before a call,
 * every batch already sent is handled, so a read sees every exchange that completed before it.
 */
import { parentPort, receiveMessageOnPort, workerData } from "node:worker_threads";
import { openDb } from "./db";
import { StoreWriter } from "./store-writer";
import { TraceReader } from "./trace-reader";
import { Recorder } from "./recorder";
import type { FeedEvent } from "../link/frames";
import { traceIdSource } from "./trace-ids";
import type { ExchangeRecord } from "../link/exchange-record";
import type { StoredBody } from "../link/stored-body";
import type { Call, RecordingCalls } from "../link/calls";
import type {
  AnnouncedRuns,
  EventAck,
  EventBatch,
  FromRecording,
  RecordingThreadData,
  Span,
  TapEvent,
  ToRecording,
} from "../link/protocol";
import { ParkedFrames, estimatedSize } from "./parked-frames";
import { forEachEvent } from "../link/event-codec";

const parent = parentPort;
if (!parent) throw new Error("recording/thread.ts runs as a worker thread (see link/threads.ts)");
const data = workerData as RecordingThreadData;
const post = (msg: FromRecording) => parent.postMessage(msg);

const db = openDb(data.file);
const writer = new StoreWriter(db, {
  flushIntervalMs: data.flushIntervalMs,
  maxTraces: data.maxTraces,
  onCommitted: (traceIds) => {
    // Each trace committed is announced with what the feed shows of it, after its exchanges' own frames.
    for (const id of traceIds) announceTrace(id);
    flushAnnounced();
    post({ kind: "committed", traceIds });
  },
  onHealth: (health) => post({ kind: "storage", health }),
});
const reader = new TraceReader(db);
const announced: AnnouncedRuns = [];
/** Subscribers to serialised frames (the live feed, the audience view), each while it has a client. */
let subscribers = 0;
/** Parked frames wait at most this long to be announced to the main thread (see the events' handler). */
const PARKED_POST_MS = 50;
let parkedTimer: NodeJS.Timeout | null = null;
const parked = new ParkedFrames();
const recorder = new Recorder({
  // Serialised here, off the other threads (strings cross threads far cheaper than objects), and only while
  // someone watches; otherwise parked unserialised, in case a reconnecting client resumes past them.
  announce: (e) => (subscribers > 0 ? announced.push(JSON.stringify(e)) : parkFrame(e, estimatedSize(e))),
  store: (r) => writer.enqueue(r),
  maxSeq: (id) => writer.maxSeq(id),
  newTraceId: traceIdSource(),
  maxBodyBytes: data.maxBodyBytes,
  firstId: writer.maxExchangeId() + 1,
});

data.events.on("message", (batch: EventBatch) => {
  handleBatch(batch);
  // While somebody watches, frames go out with each batch; parked ones (nobody watching) only number the
  // feed's frames, so they wait for a commit or PARKED_POST_MS: a message to the main thread per batch cost
  // it more than the frames did.
  if (subscribers > 0) flushAnnounced();
  else parkedTimer ??= setTimeout(flushAnnounced, PARKED_POST_MS);
});
parent.on("message", (msg: ToRecording) => {
  drainEvents();
  switch (msg.kind) {
    case "subscribe":
      subscribers++;
      // What was parked before goes first; every frame after this is serialised.
      return flushAnnounced();
    case "unsubscribe":
      subscribers = Math.max(0, subscribers - 1);
      return;
    case "call":
      try {
        const result = call(msg.request);
        flushAnnounced();
        return post({ kind: "reply", call: msg.call, result });
      } catch (err) {
        flushAnnounced();
        return post({ kind: "reply", call: msg.call, error: err instanceof Error ? err.message : String(err) });
      }
    case "close":
      flushAnnounced();
      writer.close();
      post({ kind: "closed" });
      data.events.close();
      return parent.close();
  }
});
post({ kind: "ready" });

function handleBatch(msg: EventBatch): void {
  arena = msg.arena ? Buffer.from(msg.arena) : EMPTY;
  forEachEvent(msg, handleEvent);
  arena = EMPTY;
  data.events.postMessage({ ack: msg.batch } satisfies EventAck);
}

/** The byte arena of the batch being handled, and how an event's span is read from it. */
const EMPTY = Buffer.alloc(0);
let arena = EMPTY;
const spanBytes = ([offset, length]: Span): Buffer => arena.subarray(offset, offset + length);

function handleEvent(e: TapEvent): void {
  try {
    recorder.handle(e, spanBytes);
  } catch (err) {
    // A bug in recording one exchange must not stop the others; the main thread logs it.
    post({ kind: "error", message: err instanceof Error ? (err.stack ?? err.message) : String(err) });
  }
}

/** Handles every batch the taps thread has already sent (they arrive on another channel than calls). */
function drainEvents(): void {
  for (let m = receiveMessageOnPort(data.events); m; m = receiveMessageOnPort(data.events))
    handleBatch(m.message as EventBatch);
}

/** A committed trace as `trace.updated` shows it, or `trace.deleted` when it is gone (retention, a delete). */
function traceFrame(traceId: string): FeedEvent {
  const t = reader.storedTrace(traceId);
  return t ? { type: "trace.updated", ...t } : { type: "trace.deleted", traceId };
}

/**
 * With nobody subscribed, a trace's frame is read only if a resuming client asks for it (as it is then, a
 * trace deleted meanwhile reported as such): two queries per trace and commit saved while nobody watches.
 */
function announceTrace(traceId: string): void {
  if (subscribers > 0) announced.push(JSON.stringify(traceFrame(traceId)));
  else parkFrame(() => traceFrame(traceId), TRACE_FRAME_SIZE);
}
const TRACE_FRAME_SIZE = 1024;

/** Parks a frame and counts it into the run of parked frames at the end of what is to be announced. */
function parkFrame(e: FeedEvent | (() => FeedEvent), size: number): void {
  parked.park(e, size);
  const last = announced.length - 1;
  if (last >= 0 && typeof announced[last] === "number") announced[last] = (announced[last] as number) + 1;
  else announced.push(1);
}

function flushAnnounced(): void {
  if (parkedTimer) clearTimeout(parkedTimer);
  parkedTimer = null;
  if (announced.length === 0) return;
  post({ kind: "announce", frames: announced });
  announced.length = 0;
}

/** Every read sees what is queued committed first, except storedTrace, asked for right after a commit. */
const calls: RecordingCalls = {
  listTraces: (limit, after) => (writer.flush(), reader.listTraces(limit, after)),
  traceSummary: (id) => (writer.flush(), reader.traceSummary(id)),
  storedTrace: (id) => reader.storedTrace(id),
  trace: (id) => (writer.flush(), reader.trace(id)),
  links: (traceId) => (writer.flush(), reader.links(traceId)),
  exchange: (id) => (writer.flush(), reader.exchange(id)),
  exchanges: (traceId) => (writer.flush(), reader.exchanges(traceId)),
  previousChat: (traceId, seq) => (writer.flush(), reader.previousChat(traceId, seq)),
  mcpExchangesIn: (window) => (writer.flush(), reader.mcpExchangesIn(window)),
  snapshot: (limit) => (
    writer.flush(),
    { traces: reader.listTraces(limit, null).traces, inFlight: recorder.inFlight() }
  ),
  inFlight: () => recorder.inFlight(),
  inFlightExchange: (id) => recorder.inFlightExchange(id),
  lastLesson: () => recorder.lastLesson,
  allocateIds: (count) => recorder.allocateIds(count),
  placeStdio: (session, count, tools, client) => recorder.placeStdio(session, count, tools, client),
  rename: (traceId, name) => {
    writer.rename(traceId, name);
    return reader.traceSummary(traceId);
  },
  setSavedAs: (traceId, file) => writer.setSavedAs(traceId, file),
  delete: (traceId) => {
    recorder.forgetTrace(traceId);
    return writer.delete(traceId);
  },
  insertTrace: (trace, records) => {
    writer.insertTrace(trace, records.map(revive));
    const stored = reader.traceSummary(trace.id);
    if (!stored) throw new Error(`imported trace ${trace.id} was not stored`);
    return stored;
  },
  enqueue: (record) => writer.enqueue(revive(record)),
  parkedFrames: (parks) => parked.serialised(parks),
};

/** Runs a call by its name; the map's types tie each name to its arguments (link/calls.ts). */
function call(req: Call): unknown {
  const run = calls[req.method] as (...args: Call["args"]) => unknown;
  return run(...req.args);
}

/** Structured clone turns Buffers into Uint8Arrays; better-sqlite3 binds Buffers (blobs of binary bodies). */
function revive(r: ExchangeRecord): ExchangeRecord {
  return { ...r, requestBody: bufferBody(r.requestBody), responseBody: bufferBody(r.responseBody) };
}

function bufferBody(b: StoredBody | null): StoredBody | null {
  if (!b || typeof b.data === "string" || Buffer.isBuffer(b.data)) return b;
  const u = b.data as Uint8Array;
  return { ...b, data: Buffer.from(u.buffer, u.byteOffset, u.byteLength) };
}
