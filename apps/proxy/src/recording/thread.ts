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
import type {
  AnnouncedRuns,
  Call,
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
    // The frames of the exchanges committed reach the feed before their traces' trace.updated.
    flushAnnounced();
    post({ kind: "committed", traceIds });
  },
  onHealth: (health) => post({ kind: "storage", health }),
});
const reader = new TraceReader(db);
const announced: AnnouncedRuns = [];
/** Whether anyone watches live; until the main thread says so, nobody does. */
let watching = false;
/** Parked frames wait at most this long to be announced to the main thread (see the events' handler). */
const PARKED_POST_MS = 50;
let parkedTimer: NodeJS.Timeout | null = null;
const parked = new ParkedFrames();
const recorder = new Recorder({
  // Serialised here, off the other threads (strings cross threads far cheaper than objects), and only while
  // someone watches; otherwise parked unserialised, in case a reconnecting client resumes past them.
  announce: (e) => (watching ? announced.push(JSON.stringify(e)) : parkFrame(e)),
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
  if (watching) flushAnnounced();
  else parkedTimer ??= setTimeout(flushAnnounced, PARKED_POST_MS);
});
parent.on("message", (msg: ToRecording) => {
  drainEvents();
  switch (msg.kind) {
    case "watch":
      watching = msg.on;
      // What was parked before someone started watching goes first.
      if (watching) flushAnnounced();
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

/** Parks a frame and counts it into the run of parked frames at the end of what is to be announced. */
function parkFrame(e: FeedEvent): void {
  parked.park(e, estimatedSize(e));
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

function call(req: Call): unknown {
  switch (req.op) {
    case "read": {
      // trace.updated frames are asked for after a commit: what they read is committed already.
      if (req.method !== "storedTrace") writer.flush();
      const read = reader[req.method] as (...args: unknown[]) => unknown;
      return read.apply(reader, req.args);
    }
    case "snapshot":
      writer.flush();
      return { traces: reader.listTraces(req.limit, null).traces, inFlight: recorder.inFlight() };
    case "inFlight":
      return recorder.inFlight();
    case "inFlightExchange":
      return recorder.inFlightExchange(req.id);
    case "lesson":
      return recorder.lastLesson;
    case "allocateIds":
      return recorder.allocateIds(req.count);
    case "rename":
      return writer.rename(req.traceId, req.name);
    case "setSavedAs":
      return writer.setSavedAs(req.traceId, req.file);
    case "delete":
      recorder.forgetTrace(req.traceId);
      return writer.delete(req.traceId);
    case "insertTrace":
      return writer.insertTrace(req.trace, (req.records as ExchangeRecord[]).map(revive));
    case "enqueue":
      return writer.enqueue(revive(req.record as ExchangeRecord));
    case "parkedFrames":
      return parked.serialised(req.parks);
  }
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
