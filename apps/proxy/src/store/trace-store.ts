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

const BATCH_SIZE = 64;

export class TraceStore {
  private queue: ExchangeRecord[] = [];
  private timer: NodeJS.Timeout | null = null;
  private closed = false;
  private readonly statements = new Map<string, Statement>();
  private readonly insertBatch: (records: ExchangeRecord[]) => void;

  constructor(
    private readonly db: Db,
    private readonly flushIntervalMs: number,
    /** Called after each flush with the traces it touched (the live feed announces them). */
    private readonly onFlushed: (traceIds: string[]) => void,
    /** Called for a record that arrives after close() (an exchange cut off by the shutdown). */
    private readonly onDropped: (record: ExchangeRecord) => void = () => {},
  ) {
    const insertTrace = db.prepare(`INSERT OR IGNORE INTO traces (id, name, name_rank, source, created_at, updated_at, grouped_by)
      VALUES (@id, @name, @rank, @source, @start, @end, @groupedBy)`);
    const updateTrace = db.prepare(`UPDATE traces SET
      created_at = MIN(created_at, @start), updated_at = MAX(updated_at, @end),
      grouped_by = CASE WHEN grouped_by = 'single' AND @groupedBy = 'conversation' THEN 'conversation' ELSE grouped_by END,
      name = CASE WHEN name_custom = 0 AND @rank > name_rank THEN @name ELSE name END,
      name_rank = MAX(name_rank, @rank) WHERE id = @id`);
    const insertExchange = db.prepare(`INSERT OR REPLACE INTO exchanges (id, trace_id, seq, tap, method, url, upstream, status, state, error,
      t_start, t_request_end, t_first_byte, t_end, request_headers, response_headers, request_body, request_meta, response_body,
      response_meta, chunks, classification, tool_messages, simulated, title)
      VALUES (@id, @traceId, @seq, @tap, @method, @url, @upstream, @status, @state, @error, @start, @requestEnd, @firstByte, @end,
      @requestHeaders, @responseHeaders, @requestBody, @requestMeta, @responseBody, @responseMeta, @chunks, @classification,
      @toolMessages, @simulated, @title)`);
    this.insertBatch = db.transaction((records: ExchangeRecord[]) => {
      for (const r of records) {
        const s = r.summary;
        const t = { id: s.traceId, name: r.title, rank: r.titleRank, source: r.source ?? "live", start: s.timings.start, end: s.timings.end ?? s.timings.start, groupedBy: r.groupedBy };
        insertTrace.run(t);
        updateTrace.run(t);
        insertExchange.run({
          id: s.id,
          traceId: s.traceId,
          seq: s.seq,
          tap: s.tap,
          method: s.method,
          url: s.url,
          upstream: s.upstream,
          status: s.status,
          state: s.state,
          error: s.error,
          ...s.timings,
          requestHeaders: JSON.stringify(r.requestHeaders),
          responseHeaders: JSON.stringify(r.responseHeaders),
          requestBody: r.requestBody?.data ?? null,
          requestMeta: JSON.stringify(metaOf(r.requestBody)),
          responseBody: r.responseBody?.data ?? null,
          responseMeta: JSON.stringify(metaOf(r.responseBody)),
          chunks: JSON.stringify(r.chunks),
          classification: JSON.stringify(s.classification),
          toolMessages: r.toolMessages ? JSON.stringify(r.toolMessages) : null,
          simulated: r.simulated === null ? null : r.simulated ? 1 : 0,
          title: r.title,
        });
      }
    });
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
    if (this.queue.length >= BATCH_SIZE) this.flush();
    else this.timer ??= setTimeout(() => this.flush(), this.flushIntervalMs);
  }

  /** Writes everything queued in one transaction. Safe to call any time (reads call it first). */
  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.queue.length === 0) return;
    const batch = this.queue;
    this.queue = [];
    this.insertBatch(batch);
    this.onFlushed([...new Set(batch.map((r) => r.summary.traceId))]);
  }

  close(): void {
    this.flush();
    this.closed = true;
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

function metaOf(b: StoredBody | null): BodyMeta | null {
  if (!b) return null;
  return { encoding: b.encoding, size: b.size, storedSize: b.storedSize, truncated: b.truncated, contentType: b.contentType };
}

function parseCursor(cursor: string): { createdAt: number; id: string } {
  const i = cursor.indexOf(":");
  const createdAt = Number(cursor.slice(0, i));
  if (i === -1 || !Number.isFinite(createdAt)) throw new CursorError(`cursor "${cursor}" is not one this API returned; pass nextCursor from the previous page`);
  return { createdAt, id: cursor.slice(i + 1) };
}

export class CursorError extends Error {}
