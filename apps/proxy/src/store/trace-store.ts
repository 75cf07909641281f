/**
 * The recorder's storage. Writes go through an in-memory queue flushed in one transaction per batch
 * (every `flushIntervalMs`, or sooner when the batch is large), so forwarding never waits on SQLite and
 * a crash loses at most what was in flight. Reads flush first, so the API always sees what completed.
 */
import { ClassificationSchema, type Chunk, type Exchange, type ExchangeSummary, type HeaderList, type Link, type Trace, type TraceSummary } from "@hopscope/shared/trace/schemas";
import type { GroupedBy } from "@hopscope/shared/trace/group";
import { linkExchanges, type ToolMessage } from "@hopscope/shared/trace/link";
import { z } from "zod";
import type { Statement } from "better-sqlite3";
import type { Db } from "./db";
import type { StoredBody } from "./body";
import { INSERT_EXCHANGE_SQL, PRUNE_TRACES_SQL, UPSERT_TRACE_SQL, rowParams } from "./write-sql";
import { SqliteWriter } from "./sqlite-writer";
import {
  ExchangeRowSchema,
  ExchangeSummaryRowSchema,
  SUMMARY_COLUMNS,
  TRACE_COLUMNS,
  TraceRowSchema,
  toExchange,
  toSummary,
  toTraceSummary,
  type BodyMeta,
} from "./rows";

/** One completed exchange, ready to be written. */
export interface ExchangeRecord {
  summary: ExchangeSummary;
  requestHeaders: HeaderList;
  responseHeaders: HeaderList;
  requestBody: StoredBody | null;
  responseBody: StoredBody | null;
  chunks: Chunk[];
  toolMessages: ToolMessage[] | null;
  simulated: boolean | null;
  /** A name candidate for the trace and how good it is (agent question 2 > user message 1 > request line 0). */
  title: string;
  titleRank: number;
  groupedBy: GroupedBy;
  source?: "live" | "imported";
}

/**
 * A flush this big happens before the interval is up. Bigger batches rewrite each B-tree page (table and
 * index leaves, the WAL) fewer times per exchange; at the bench's ~2,000 exchanges/s the interval still
 * decides, so the crash window stays FLUSH_INTERVAL_MS.
 */
const BATCH_SIZE = 256;

export class TraceStore {
  private queue: ExchangeRecord[] = [];
  private timer: NodeJS.Timeout | null = null;
  private closed = false;
  private readonly statements = new Map<string, Statement>();
  private readonly insertBatch: (records: ExchangeRecord[]) => void;
  private readonly writer: SqliteWriter | null;

  constructor(
    private readonly db: Db,
    private readonly flushIntervalMs: number,
    /** Called after each flush with the traces it touched (the live feed announces them). */
    private readonly onFlushed: (traceIds: string[]) => void,
    /** Called for a record that arrives after close() (an exchange cut off by the shutdown). */
    private readonly onDropped: (record: ExchangeRecord) => void = () => {},
    /** Retention: keep at most this many traces, pruning the least recently updated unsaved ones (0: all). */
    private readonly maxTraces = 0,
  ) {
    const upsertTrace = db.prepare(UPSERT_TRACE_SQL);
    const insertExchange = db.prepare(INSERT_EXCHANGE_SQL);
    this.insertBatch = db.transaction((records: ExchangeRecord[]) => {
      for (const r of records) {
        const [trace, exchange] = rowParams(r);
        upsertTrace.run(trace);
        insertExchange.run(exchange);
      }
    });
    // Live recording is written on a worker thread; an in-memory database cannot be shared with one.
    this.writer = db.memory ? null : new SqliteWriter(db.name, (traceIds) => {
      if (!this.closed) this.onFlushed(traceIds);
    }, maxTraces);
  }

  /** Prepared statements are cached: preparing is far dearer than running, and some run per exchange. */
  private stmt(sql: string): Statement {
    let st = this.statements.get(sql);
    if (!st) {
      st = this.db.prepare(sql);
      this.statements.set(sql, st);
    }
    return st;
  }

  enqueue(record: ExchangeRecord): void {
    if (this.closed) {
      // Shutting down: the database is gone. Only exchanges cut off by the shutdown itself land here.
      this.onDropped(record);
      return;
    }
    this.queue.push(record);
    if (this.queue.length >= BATCH_SIZE) this.post();
    else this.timer ??= setTimeout(() => this.post(), this.flushIntervalMs);
  }

  /** Hands everything queued to the writer as one transaction, without waiting for the commit. */
  private post(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.queue.length === 0) return;
    const batch = this.queue;
    this.queue = [];
    const traceIds = [...new Set(batch.map((r) => r.summary.traceId))];
    if (this.writer) return this.writer.post(batch.map(rowParams), traceIds);
    this.insertBatch(batch);
    const pruned = this.maxTraces > 0 ? (this.stmt(PRUNE_TRACES_SQL).all(this.maxTraces) as { id: string }[]).map((r) => r.id) : [];
    this.onFlushed([...traceIds, ...pruned]);
  }

  /** Writes everything queued and waits for the commit. Reads (and the API's own writes) call it first. */
  flush(): void {
    this.post();
    this.writer?.wait();
  }

  /** Writes what is queued, then stops the writer. Records arriving later are dropped (see onDropped). */
  async close(): Promise<void> {
    this.flush();
    this.closed = true;
    await this.writer?.close();
  }

  maxExchangeId(): number {
    const row = this.stmt("SELECT COALESCE(MAX(id), 0) AS m FROM exchanges").get() as { m: number };
    return row.m;
  }

  /**
   * Highest seq stored for a trace. No flush: queued records of a trace were numbered by the recorder,
   * which asks only for traces it has not numbered yet in this process.
   */
  maxSeq(traceId: string): number {
    const row = this.stmt("SELECT COALESCE(MAX(seq), 0) AS m FROM exchanges WHERE trace_id = ?").get(traceId) as { m: number };
    return row.m;
  }

  /** Newest first; the cursor is opaque to clients (`createdAt:id` of the last trace of the page). */
  listTraces(limit: number, cursor?: string): { traces: TraceSummary[]; nextCursor: string | null } {
    this.flush();
    const after = cursor === undefined ? null : parseCursor(cursor);
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

  getTraceSummary(id: string): TraceSummary | null {
    this.flush();
    return this.readTraceSummary(id);
  }

  /**
   * A trace's summary and links as stored, without flushing first: for frames built while a flush is
   * announcing (or later, when a resuming client reads them), where flushing would announce anew.
   */
  storedTrace(id: string): { trace: TraceSummary; links: Link[] } | null {
    const trace = this.readTraceSummary(id);
    return trace ? { trace, links: this.readLinks(id) } : null;
  }

  private readTraceSummary(id: string): TraceSummary | null {
    const row = this.stmt(`SELECT ${TRACE_COLUMNS} FROM traces t WHERE t.id = ?`).get(id);
    return row === undefined ? null : toTraceSummary(TraceRowSchema.parse(row));
  }

  getTrace(id: string): Trace | null {
    const summary = this.getTraceSummary(id);
    if (!summary) return null;
    const exchanges = this.stmt(`SELECT ${SUMMARY_COLUMNS} FROM exchanges WHERE trace_id = ? ORDER BY seq, id`)
      .all(id)
      .map((r) => toSummary(ExchangeSummaryRowSchema.parse(r)));
    return { ...summary, exchanges, links: this.links(id) };
  }

  links(traceId: string): Link[] {
    this.flush();
    return this.readLinks(traceId);
  }

  private readLinks(traceId: string): Link[] {
    const rows = this.stmt("SELECT id, seq, classification, tool_messages FROM exchanges WHERE trace_id = ?").all(traceId);
    return linkExchanges(rows.map((r) => LinkRowSchema.parse(r)));
  }

  getExchange(id: number): Exchange | null {
    this.flush();
    const row = this.stmt("SELECT *, json_array_length(chunks) AS chunk_count FROM exchanges WHERE id = ?").get(id);
    return row === undefined ? null : toExchange(ExchangeRowSchema.parse(row));
  }

  /** Every exchange of a trace with bodies, in order (for exports). */
  getExchanges(traceId: string): Exchange[] {
    this.flush();
    return this.stmt("SELECT *, json_array_length(chunks) AS chunk_count FROM exchanges WHERE trace_id = ? ORDER BY seq, id")
      .all(traceId)
      .map((r) => toExchange(ExchangeRowSchema.parse(r)));
  }

  /** The model.chat exchange of the same trace just before this one (for the prompt diff). */
  previousChat(traceId: string, seq: number): Exchange | null {
    this.flush();
    const row = this.stmt(
        `SELECT id FROM exchanges WHERE trace_id = ? AND seq < ? AND json_extract(classification, '$.kind') = 'model.chat'
         ORDER BY seq DESC LIMIT 1`,
      )
      .get(traceId, seq) as { id: number } | undefined;
    return row ? this.getExchange(row.id) : null;
  }

  rename(id: string, name: string): TraceSummary | null {
    this.flush();
    this.stmt("UPDATE traces SET name = ?, name_custom = 1 WHERE id = ?").run(name, id);
    return this.getTraceSummary(id);
  }

  setSavedAs(id: string, file: string): void {
    this.flush();
    this.stmt("UPDATE traces SET saved_as = ? WHERE id = ?").run(file, id);
  }

  delete(id: string): boolean {
    this.flush();
    return this.stmt("DELETE FROM traces WHERE id = ?").run(id).changes > 0;
  }

  /** Writes a whole trace at once (imports), in one transaction: a bad file leaves nothing behind. */
  insertTrace(summary: Pick<TraceSummary, "id" | "name" | "groupedBy" | "createdAt" | "updatedAt">, records: ExchangeRecord[]): TraceSummary {
    this.flush();
    this.db.transaction(() => {
      this.stmt(
          `INSERT INTO traces (id, name, name_custom, name_rank, source, created_at, updated_at, grouped_by)
           VALUES (?, ?, 1, 9, 'imported', ?, ?, ?)`,
        )
        .run(summary.id, summary.name, summary.createdAt, summary.updatedAt, summary.groupedBy);
      this.insertBatch(records);
    })();
    // insertBatch announced nothing here (it is the raw writer); the caller announces the import.
    const out = this.getTraceSummary(summary.id);
    if (!out) throw new Error(`imported trace ${summary.id} was not stored`);
    return out;
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
