/**
 * The messages between the forwarding thread (taps, API, feed) and the recording thread (recorder, SQLite
 * writer). Plain data, structured-cloned; bytes travel in one transferred arena per batch (offsets into it),
 * so a batch costs one copy of its bytes and one postMessage however many exchanges it carries.
 */
import type { ExchangeState, Tap } from "@hopscope/shared/trace/schemas";
import type { StorageHealth } from "@hopscope/shared/trace/api";
import type { ReadMethod } from "../store/trace-reader";

/** Announced frames as they cross threads: four entries per frame (see FromThread "announce"). */
export type AnnouncedFrames = (string | number)[];

/** Bytes in the batch's arena: [offset, length]. */
export type Span = [number, number];

/** What the forwarding thread saw, in order. Times are epoch ms (fractional). */
export type TapEvent =
  | {
      k: "begin";
      id: number;
      tap: Tap;
      method: string;
      url: string;
      upstream: string;
      /** As received (with the tap's own additions); the recorder redacts them. */
      headers: [string, string][];
      /** The client socket (remote address:port) the request came on. */
      connection: string | null;
      start: number;
    }
  /** The request is complete: its kept bytes (up to the cap) and its full size. */
  | { k: "request"; id: number; parts: Span[]; size: number; at: number | null }
  | { k: "response"; id: number; status: number; headers: [string, string][] }
  /** `t`: ms since start; `bytes`: the kept part of the chunk (absent once the cap is reached). */
  | { k: "chunk"; id: number; t: number; size: number; bytes: Span | null }
  | { k: "end"; id: number; state: Exclude<ExchangeState, "pending" | "streaming">; error: string | null; at: number };

/** Requests that answer (the API's reads and writes), handled after every event sent before them. */
export type Call =
  /** A read of the stored traces (store/trace-reader.ts), after what is queued is committed. */
  | { op: "read"; method: ReadMethod; args: unknown[] }
  | { op: "rename"; traceId: string; name: string }
  | { op: "setSavedAs"; traceId: string; file: string }
  | { op: "delete"; traceId: string }
  /** Whole traces (imports, the start of a replay) and replayed exchanges: records built by exchange-record.ts. */
  | { op: "insertTrace"; trace: InsertTrace; records: unknown[] }
  | { op: "enqueue"; record: unknown };

export interface InsertTrace {
  id: string;
  name: string;
  groupedBy: "traceparent" | "conversation" | "single";
  createdAt: number;
  updatedAt: number;
}

export type ToThread =
  | { kind: "events"; batch: number; events: TapEvent[]; arena: ArrayBuffer | null }
  | { kind: "call"; call: number; request: Call }
  | { kind: "close" };

export type FromThread =
  | { kind: "ready"; maxExchangeId: number }
  /** The batch was handled (its events are recorded, not necessarily committed). */
  | { kind: "ack"; batch: number }
  /** Frames the recorder announced, flat: [type, exchangeId, chunkIndex (-1: none), JSON without seq] × n. */
  | { kind: "announce"; frames: AnnouncedFrames }
  /** Committed: traces touched (and deleted by retention): the forwarding thread announces trace.updated. */
  | { kind: "committed"; traceIds: string[] }
  | { kind: "storage"; health: StorageHealth }
  | { kind: "reply"; call: number; result?: unknown; error?: string }
  /** Recording one event failed (a hopscope bug): logged by the forwarding thread. */
  | { kind: "error"; message: string }
  | { kind: "closed" };
