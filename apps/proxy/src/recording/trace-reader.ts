/**
 * Reads of the stored traces, synchronous, on one connection. The API's reads run on the recording thread
 * (after what it has queued is committed, so they see every exchange that completed before them), never
 * on the taps thread: 50 clients reading at once must not hold up a stream passing through a tap.
 */
import {
  ClassificationSchema,
  type Exchange,
  type Link,
  type Trace,
  type TraceSummary,
} from "@hopscope/shared/trace/schemas";
import { linkExchanges, type ToolMessage } from "@hopscope/shared/trace/link";
import { z } from "zod";
import type { Statement } from "better-sqlite3";
import type { Db } from "./db";
import type { CauseWindow, PageAfter, StoredMcpExchange, StoredReads, StoredTrace, TracePage } from "../link/calls";
import {
  EXCHANGE_ROWS,
  ExchangeRowSchema,
  ExchangeSummaryRowSchema,
  SUMMARY_COLUMNS,
  TRACE_COLUMNS,
  TraceRowSchema,
  toExchange,
  toSummary,
  toTraceSummary,
} from "./rows";

export class TraceReader implements StoredReads {
  private readonly statements = new Map<string, Statement>();

  constructor(private readonly db: Db) {}

  /** Prepared statements are cached: preparing is far dearer than running. */
  private stmt(sql: string): Statement {
    let st = this.statements.get(sql);
    if (!st) {
      st = this.db.prepare(sql);
      this.statements.set(sql, st);
    }
    return st;
  }

  /** Newest first, after `after` (the last trace of the previous page). */
  listTraces(limit: number, after: PageAfter | null): TracePage {
    const rows = this.stmt(
      `SELECT ${TRACE_COLUMNS} FROM traces t
         WHERE @created IS NULL OR t.created_at < @created OR (t.created_at = @created AND t.id < @id)
         ORDER BY t.created_at DESC, t.id DESC LIMIT @limit`,
    ).all({ created: after?.createdAt ?? null, id: after?.id ?? "", limit: limit + 1 });
    const traces = rows.slice(0, limit).map((r) => toTraceSummary(TraceRowSchema.parse(r)));
    const last = traces.at(-1);
    return { traces, nextCursor: rows.length > limit && last ? `${last.createdAt}:${last.id}` : null };
  }

  traceSummary(id: string): TraceSummary | null {
    const row = this.stmt(`SELECT ${TRACE_COLUMNS} FROM traces t WHERE t.id = ?`).get(id);
    return row === undefined ? null : toTraceSummary(TraceRowSchema.parse(row));
  }

  /** A trace's summary and links (what `trace.updated` carries), or null when it is gone. */
  storedTrace(id: string): StoredTrace | null {
    const trace = this.traceSummary(id);
    return trace ? { trace, links: this.links(id) } : null;
  }

  trace(id: string): Trace | null {
    const summary = this.traceSummary(id);
    if (!summary) return null;
    const exchanges = this.stmt(`SELECT ${SUMMARY_COLUMNS} FROM exchanges WHERE trace_id = ? ORDER BY seq, id`)
      .all(id)
      .map((r) => toSummary(ExchangeSummaryRowSchema.parse(r)));
    return { ...summary, exchanges, links: this.links(id) };
  }

  links(traceId: string): Link[] {
    const rows = this.stmt("SELECT id, seq, classification, tool_messages FROM exchanges WHERE trace_id = ?").all(
      traceId,
    );
    return linkExchanges(rows.map((r) => LinkRowSchema.parse(r)));
  }

  exchange(id: number): Exchange | null {
    const row = this.stmt(`${EXCHANGE_ROWS} WHERE e.id = ?`).get(id);
    return row === undefined ? null : toExchange(ExchangeRowSchema.parse(row));
  }

  /** Every exchange of a trace with bodies, in order (for exports). */
  exchanges(traceId: string): Exchange[] {
    return this.stmt(`${EXCHANGE_ROWS} WHERE e.trace_id = ? ORDER BY e.seq, e.id`)
      .all(traceId)
      .map((r) => toExchange(ExchangeRowSchema.parse(r)));
  }

  /** The model.chat exchange of the same trace just before this one (for the prompt diff). */
  previousChat(traceId: string, seq: number): Exchange | null {
    const row = this.stmt(
      `SELECT id FROM exchanges WHERE trace_id = ? AND seq < ? AND json_extract(classification, '$.kind') = 'model.chat'
         ORDER BY seq DESC LIMIT 1`,
    ).get(traceId, seq) as { id: number } | undefined;
    return row ? this.exchange(row.id) : null;
  }
  mcpExchangesIn(w: CauseWindow): StoredMcpExchange[] {
    const rows = this.stmt(
      `SELECT id, trace_id AS traceId, classification FROM exchanges
       WHERE id > (SELECT COALESCE(MAX(id), 0) FROM exchanges) - ? AND tap = 'mcp' AND t_start <= ? AND t_end >= ?
       ORDER BY t_start DESC`,
    ).all(w.recent, w.startBy, w.endAfter) as { id: number; traceId: string; classification: string }[];
    return rows.map((r) => ({
      id: r.id,
      traceId: r.traceId,
      classification: ClassificationSchema.parse(JSON.parse(r.classification)),
    }));
  }
}

/** The reads the API may ask the recording thread for, by name. */
const LinkRowSchema = z
  .object({
    id: z.number().int(),
    seq: z.number().int(),
    classification: z.string(),
    tool_messages: z.string().nullable(),
  })
  .transform((r) => ({
    id: r.id,
    seq: r.seq,
    classification: ClassificationSchema.parse(JSON.parse(r.classification)),
    toolMessages: r.tool_messages ? (JSON.parse(r.tool_messages) as ToolMessage[]) : [],
  }));
