/**
 * The recorder's storage as the API sees it, on the forwarding thread: every read and write is a call to
 * the recording thread (see recording/link.ts), answered after what that thread has queued is committed,
 * so a read sees every exchange that completed before it. Nothing here touches SQLite or blocks: the taps
 * keep forwarding while the API waits.
 */
import type { Exchange, Link, Trace, TraceSummary } from "@hopscope/shared/trace/schemas";
import type { ExchangeRecord } from "../link/exchange-record";
import type { Call, InsertTrace } from "../link/protocol";
import type { TracePage } from "../recording/trace-reader";

/** The recording thread, as the store needs it. */
export interface StoreLink {
  call(request: Call): Promise<unknown>;
}

export class TraceStore {
  constructor(private readonly link: StoreLink) {}

  private read<T>(method: Extract<Call, { op: "read" }>["method"], ...args: unknown[]): Promise<T> {
    return this.link.call({ op: "read", method, args }) as Promise<T>;
  }

  /** Newest first; the cursor is opaque to clients (`createdAt:id` of the last trace of the page). */
  listTraces(limit: number, cursor?: string): Promise<TracePage> {
    return this.read("listTraces", limit, cursor === undefined ? null : parseCursor(cursor));
  }

  getTraceSummary(id: string): Promise<TraceSummary | null> {
    return this.read("traceSummary", id);
  }

  /** Summary and links of each trace (null: deleted), for `trace.updated` frames. */
  storedTraces(ids: string[]): Promise<({ trace: TraceSummary; links: Link[] } | null)[]> {
    return Promise.all(ids.map((id) => this.read<{ trace: TraceSummary; links: Link[] } | null>("storedTrace", id)));
  }

  getTrace(id: string): Promise<Trace | null> {
    return this.read("trace", id);
  }

  links(traceId: string): Promise<Link[]> {
    return this.read("links", traceId);
  }

  getExchange(id: number): Promise<Exchange | null> {
    return this.read("exchange", id);
  }

  /** Every exchange of a trace with bodies, in order (for exports). */
  getExchanges(traceId: string): Promise<Exchange[]> {
    return this.read("exchanges", traceId);
  }

  /** The model.chat exchange of the same trace just before this one (for the prompt diff). */
  previousChat(traceId: string, seq: number): Promise<Exchange | null> {
    return this.read("previousChat", traceId, seq);
  }

  /** Renames a trace for good (a recorded name never replaces it). */
  async rename(id: string, name: string): Promise<TraceSummary | null> {
    await this.link.call({ op: "rename", traceId: id, name });
    return this.getTraceSummary(id);
  }

  async setSavedAs(id: string, file: string): Promise<void> {
    await this.link.call({ op: "setSavedAs", traceId: id, file });
  }

  /** Deletes a trace (the recorder forgets its numbering and name too). */
  async delete(id: string): Promise<boolean> {
    return (await this.link.call({ op: "delete", traceId: id })) === true;
  }

  /** Writes a whole trace at once (imports), in one transaction: a bad file leaves nothing behind. */
  async insertTrace(trace: InsertTrace, records: ExchangeRecord[]): Promise<TraceSummary> {
    await this.link.call({ op: "insertTrace", trace, records });
    // The caller announces the import.
    const out = await this.getTraceSummary(trace.id);
    if (!out) throw new Error(`imported trace ${trace.id} was not stored`);
    return out;
  }

  /** Queues one record (a replayed exchange) like a recorded one: its commit announces `trace.updated`. */
  enqueue(record: ExchangeRecord): Promise<void> {
    return this.link.call({ op: "enqueue", record }).then(() => {});
  }
}

function parseCursor(cursor: string): { createdAt: number; id: string } {
  const i = cursor.indexOf(":");
  const createdAt = Number(cursor.slice(0, i));
  if (i === -1 || !Number.isFinite(createdAt))
    throw new CursorError(`cursor "${cursor}" is not one this API returned; pass nextCursor from the previous page`);
  return { createdAt, id: cursor.slice(i + 1) };
}

export class CursorError extends Error {}
