/**
 * The recording thread: the Recorder and the store's writer, fed batches of tap events by the forwarding
 * thread (see link.ts), so grouping, classification, record building and SQLite all run beside forwarding,
 * never on it. Every message is handled in order; announcements go back in one message per batch.
 */
import { parentPort, workerData } from "node:worker_threads";
import { openDb } from "../store/db";
import { StoreWriter } from "../store/store-writer";
import { TraceReader } from "../store/trace-reader";
import { Recorder } from "../recorder";
import { traceIdSource } from "../trace-ids";
import type { ExchangeRecord } from "../exchange-record";
import type { StoredBody } from "../store/body";
import type { AnnouncedFrames, Call, FromThread, ToThread } from "./protocol";

export interface ThreadData {
  file: string;
  maxBodyBytes: number;
  flushIntervalMs: number;
  maxTraces: number;
}

const port = parentPort;
if (!port) throw new Error("recording/thread.ts runs as a worker thread (see link.ts)");
const data = workerData as ThreadData;
const post = (msg: FromThread) => port.postMessage(msg);

const db = openDb(data.file);
const writer = new StoreWriter(db, {
  flushIntervalMs: data.flushIntervalMs,
  maxTraces: data.maxTraces,
  onCommitted: (traceIds) => post({ kind: "committed", traceIds }),
  onHealth: (health) => post({ kind: "storage", health }),
});
const reader = new TraceReader(db);
let announced: AnnouncedFrames = [];
const recorder = new Recorder({
  // Serialised here, off the forwarding thread; it keeps strings only (see TapRecorder.announced).
  announce: (e) => {
    const id = e.type === "exchange.chunk" ? e.exchangeId : e.type === "exchange.started" || e.type === "exchange.completed" ? e.exchange.id : -1;
    announced.push(e.type, id, e.type === "exchange.chunk" ? e.chunk.index : -1, JSON.stringify(e));
  },
  store: (r) => writer.enqueue(r),
  maxSeq: (id) => writer.maxSeq(id),
  newTraceId: traceIdSource(),
  maxBodyBytes: data.maxBodyBytes,
});

port.on("message", (msg: ToThread) => {
  switch (msg.kind) {
    case "events": {
      const arena = msg.arena ? Buffer.from(msg.arena) : EMPTY;
      for (const e of msg.events) {
        try {
          recorder.handle(e, ([offset, length]) => arena.subarray(offset, offset + length));
        } catch (err) {
          // A bug in recording one exchange must not stop the others; the forwarding thread logs it.
          post({ kind: "error", message: err instanceof Error ? (err.stack ?? err.message) : String(err) });
        }
      }
      flushAnnounced();
      return post({ kind: "ack", batch: msg.batch });
    }
    case "call":
      try {
        const result = call(msg.request);
        flushAnnounced();
        return post({ kind: "reply", call: msg.call, result });
      } catch (err) {
        return post({ kind: "reply", call: msg.call, error: err instanceof Error ? err.message : String(err) });
      }
    case "close":
      writer.close();
      post({ kind: "closed" });
      return port.close();
  }
});
post({ kind: "ready", maxExchangeId: writer.maxExchangeId() });

function flushAnnounced(): void {
  if (announced.length === 0) return;
  post({ kind: "announce", frames: announced });
  announced = [];
}

function call(req: Call): unknown {
  switch (req.op) {
    case "read": {
      // trace.updated frames are asked for after a commit: what they read is committed already.
      if (req.method !== "storedTrace") writer.flush();
      const read = reader[req.method] as (...args: unknown[]) => unknown;
      return read.apply(reader, req.args);
    }
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

const EMPTY = Buffer.alloc(0);
