/**
 * The recorder's storage as the API reads it, on the forwarding thread. Every write goes through the
 * recording thread (its StoreWriter is the one write path); a read first awaits that thread's commit of
 * everything recorded before it (`settled`, asynchronous: the taps keep forwarding meanwhile), then reads
 * this thread's own connection (WAL: readers never wait for the writer).
 */
import { ClassificationSchema, type Exchange, type Link, type Trace, type TraceSummary } from "@hopscope/shared/trace/schemas";
import type { ToolMessage } from "@hopscope/shared/trace/link";
import { linkExchanges } from "@hopscope/shared/trace/link";
import { z } from "zod";
import type { Statement } from "better-sqlite3";
import type { Db } from "./db";
import type { ExchangeRecord } from "../exchange-record";
import type { Call, InsertTrace } from "../recording/protocol";
import {
  ExchangeRowSchema,
  ExchangeSummaryRowSchema,
  SUMMARY_COLUMNS,
  TRACE_COLUMNS,
  TraceRowSchema,
  toExchange,
  toSummary,
  toTraceSummary,
} from "./rows";

/** The recording thread, as the store needs it. */
export interface StoreLink {
  settled(): Promise<void>;
  call(request: Call): Promise<unknown>;
}

export class TraceStore {
  private readonly statements = new Map<string, Statement>();

  constructor(
    private readonly db: Db,
    private readonly link: StoreLink,
  ) {}

  /** Prepared statements are cached: preparing is far dearer than running, and some run per exchange. */
  private stmt(sql: string): Statement {
    let st = this.statements.get(sql);
    if (!st) {
      st = this.db.prepare(sql);
      this.statements.set(sql, st);
    }
    return st;
  }

  /** Newest first; the cursor is opaque to clients (`createdAt:id` of the last trace of the page). */
  async listTraces(limit: number, cursor?: string): Promise<{ traces: TraceSummary[]; nextCursor: string | null }> {
    const after = cursor === undefined ? null : parseCursor(cursor);
    await this.link.settled();
    const rows = this.stmt(
        `SELECT ${TRACE_COLUMNS} FROM traces t
         WHERE @created IS NULL OR t.created_at < @created OR (t.created_at = @created AND t.id < @id)
         ORDER BY t.created_at DESC, t.id DESC LIMIT @limit`,
      )
      .all({ created: after?.createdAt ?? null, id: after?.id ?? "", limit: limit + 1 });
    const traces = rows.slice(0, limit).map((r) => toTraceSummary(TraceRowSchema.parse(r)));
    const last = traces.at(-1);
    return { traces, nextCursor: rows.length > limit && last ? `${last.createdAt}:${last.id}` : null };
  }

  async getTraceSummary(id: string): Promise<TraceSummary | null> {
    await this.link.settled();
    return this.readTraceSummary(id);
  }

  /**
   * A trace's summary and links as stored, without awaiting the writer: for `trace.updated` frames, built
   * after the commit that announced them (or later, when a resuming client reads them).
   */
  storedTrace(id: string): { trace: TraceSummary; links: Link[] } | null {
    const trace = this.readTraceSummary(id);
    return trace ? { trace, links: this.readLinks(id) } : null;
  }

  private readTraceSummary(id: string): TraceSummary | null {
    const row = this.stmt(`SELECT ${TRACE_COLUMNS} FROM traces t WHERE t.id = ?`).get(id);
    return row === undefined ? null : toTraceSummary(TraceRowSchema.parse(row));
  }

  async getTrace(id: string): Promise<Trace | null> {
    const summary = await this.getTraceSummary(id);
    if (!summary) return null;
    const exchanges = this.stmt(`SELECT ${SUMMARY_COLUMNS} FROM exchanges WHERE trace_id = ? ORDER BY seq, id`)
      .all(id)
      .map((r) => toSummary(ExchangeSummaryRowSchema.parse(r)));
    return { ...summary, exchanges, links: this.readLinks(id) };
  }

  async links(traceId: string): Promise<Link[]> {
    await this.link.settled();
    return this.readLinks(traceId);
  }

  private readLinks(traceId: string): Link[] {
    const rows = this.stmt("SELECT id, seq, classification, tool_messages FROM exchanges WHERE trace_id = ?").all(traceId);
    return linkExchanges(rows.map((r) => LinkRowSchema.parse(r)));
  }

  async getExchange(id: number): Promise<Exchange | null> {
    await this.link.settled();
    return this.readExchange(id);
  }

  private readExchange(id: number): Exchange | null {
    const row = this.stmt("SELECT *, json_array_length(chunks) AS chunk_count FROM exchanges WHERE id = ?").get(id);
    return row === undefined ? null : toExchange(ExchangeRowSchema.parse(row));
  }

  /** Every exchange of a trace with bodies, in order (for exports). */
  async getExchanges(traceId: string): Promise<Exchange[]> {
    await this.link.settled();
    return this.stmt("SELECT *, json_array_length(chunks) AS chunk_count FROM exchanges WHERE trace_id = ? ORDER BY seq, id")
      .all(traceId)
      .map((r) => toExchange(ExchangeRowSchema.parse(r)));
  }

  /** The model.chat exchange of the same trace just before this one (for the prompt diff). */
  async previousChat(traceId: string, seq: number): Promise<Exchange | null> {
    await this.link.settled();
    const row = this.stmt(
        `SELECT id FROM exchanges WHERE trace_id = ? AND seq < ? AND json_extract(classification, '$.kind') = 'model.chat'
         ORDER BY seq DESC LIMIT 1`,
      )
      .get(traceId, seq) as { id: number } | undefined;
    return row ? this.readExchange(row.id) : null;
  }

  /** Renames a trace for good (a recorded name never replaces it). */
  async rename(id: string, name: string): Promise<TraceSummary | null> {
    await this.link.call({ op: "rename", traceId: id, name });
    return this.readTraceSummary(id);
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
    const out = this.readTraceSummary(trace.id);
    if (!out) throw new Error(`imported trace ${trace.id} was not stored`);
    return out;
  }

  /** Queues one record (a replayed exchange) like a recorded one: its commit announces `trace.updated`. */
  enqueue(record: ExchangeRecord): Promise<void> {
    return this.link.call({ op: "enqueue", record }).then(() => {});
  }
}

const LinkRowSchema = z
  .object({ id: z.number().int(), seq: z.number().int(), classification: z.string(), tool_messages: z.string().nullable() })
  .transform((r) => ({
    id: r.id,
    seq: r.seq,
    classification: ClassificationSchema.parse(JSON.parse(r.classification)),
    toolMessages: r.tool_messages ? (JSON.parse(r.tool_messages) as ToolMessage[]) : [],
  }));

function parseCursor(cursor: string): { createdAt: number; id: string } {
  const i = cursor.indexOf(":");
  const createdAt = Number(cursor.slice(0, i));
  if (i === -1 || !Number.isFinite(createdAt)) throw new CursorError(`cursor "${cursor}" is not one this API returned; pass nextCursor from the previous page`);
  return { createdAt, id: cursor.slice(i + 1) };
}

export class CursorError extends Error {}
