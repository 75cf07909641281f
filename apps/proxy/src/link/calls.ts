/**
 * The one map of what the main thread may ask the recording thread: each call's name, its parameters and its
 * answer. The recording thread implements it (recording/thread.ts), the main thread calls it through
 * `RecordingLink.call` (link/threads.ts), and the message between them is derived from it, so a call and its
 * answer are typed end to end.
 */
import type {
  Classification,
  Exchange,
  ExchangeSummary,
  Link,
  Trace,
  TraceSummary,
} from "@hopscope/shared/trace/schemas";
import type { GroupedBy } from "@hopscope/shared/trace/group";
import type { ExchangeRecord } from "./exchange-record";

/** Where a batch of a stdio session goes: its trace, the rule, and the first of the seq numbers asked for. */
export interface StdioPlacement {
  traceId: string;
  groupedBy: GroupedBy;
  firstSeq: number;
}

export interface TracePage {
  traces: TraceSummary[];
  nextCursor: string | null;
}

/** Where a page of traces starts: after this trace (the last of the previous page). */
export interface PageAfter {
  createdAt: number;
  id: string;
}

/** A trace as a `trace.updated` frame carries it. */
export interface StoredTrace {
  trace: TraceSummary;
  links: Link[];
}

export interface InsertTrace {
  id: string;
  name: string;
  groupedBy: GroupedBy;
  createdAt: number;
  updatedAt: number;
}

/** Which stored MCP exchanges may have caused a notes-file change (main/notes/cause-now.ts). */
export interface CauseWindow {
  /** The request began by then… */
  startBy: number;
  /** …and the answer ended after then. */
  endAfter: number;
  /** Among this many newest exchanges. */
  recent: number;
}

export interface StoredMcpExchange {
  id: number;
  traceId: string;
  classification: Classification;
}

/** Reads of the stored traces, answered after what is queued is committed (recording/trace-reader.ts). */
export interface StoredReads {
  /** Newest first, after `after`. */
  listTraces(limit: number, after: PageAfter | null): TracePage;
  traceSummary(id: string): TraceSummary | null;
  /** Summary and links of a trace (null: deleted), as a `trace.updated` frame carries them. */
  storedTrace(id: string): StoredTrace | null;
  trace(id: string): Trace | null;
  links(traceId: string): Link[];
  exchange(id: number): Exchange | null;
  /** Every exchange of a trace with bodies, in order (for exports). */
  exchanges(traceId: string): Exchange[];
  /** The model.chat exchange of the same trace just before this one (for the prompt diff). */
  previousChat(traceId: string, seq: number): Exchange | null;
  /** MCP exchanges in the window, the latest request first. */
  mcpExchangesIn(window: CauseWindow): StoredMcpExchange[];
}

export type ReadMethod = keyof StoredReads;

export interface RecordingCalls extends StoredReads {
  /** The live feed's snapshot content: the latest traces and the exchanges in flight, read together. */
  snapshot(limit: number): { traces: TraceSummary[]; inFlight: ExchangeSummary[] };
  inFlight(): ExchangeSummary[];
  /** An exchange in flight with what of its bodies has arrived (null: not in flight). */
  inFlightExchange(id: number): Exchange | null;
  /** The last `x-hopscope-lesson` a model request carried (shown by /api/config). */
  lastLesson(): string | null;
  /** Ids for exchanges written by import and replay (they share the id space of recorded ones). */
  allocateIds(count: number): number[];
  /**
   * The trace of a wrapped stdio server's session and `count` seq numbers in it, with the tools it listed and
   * the name its host gave itself (null: not in this batch).
   */
  placeStdio(session: string, count: number, tools: string[], client: string | null): StdioPlacement;
  /** Renames a trace for good (a recorded name never replaces it); null: no such trace. */
  rename(traceId: string, name: string): TraceSummary | null;
  setSavedAs(traceId: string, file: string): void;
  /** Deletes a trace (the recorder forgets its numbering and name too); false: no such trace. */
  delete(traceId: string): boolean;
  /** Writes a whole trace at once (imports, the start of a replay), in one transaction. */
  insertTrace(trace: InsertTrace, records: ExchangeRecord[]): TraceSummary;
  /** Queues one record (a replayed or ingested exchange) like a recorded one: its commit announces it. */
  enqueue(record: ExchangeRecord): void;
  /** Frames parked while nobody watched (recording/parked-frames.ts), serialised, for a resume. */
  parkedFrames(parks: number[]): (string | null)[];
}

export type CallName = keyof RecordingCalls;
export type CallArgs<M extends CallName> = Parameters<RecordingCalls[M]>;
export type CallResult<M extends CallName> = ReturnType<RecordingCalls[M]>;

/** A call as it crosses to the recording thread. */
export type Call = { [M in CallName]: { method: M; args: CallArgs<M> } }[CallName];

/** The recording thread as the main thread reaches it: every call answered after what the taps have seen. */
export interface RecordingLink {
  call<M extends CallName>(method: M, ...args: CallArgs<M>): Promise<CallResult<M>>;
}
