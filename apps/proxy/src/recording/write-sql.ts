/**
 * How a completed exchange is written: the two statements and their positional parameters. Shared by the
 * background writer (live recording) and the main connection (imports), so both write the same rows.
 */
import type { StoredBody } from "../link/stored-body";
import type { Chunk } from "@hopscope/shared/trace/schemas";
import type { ExchangeRecord, RecordedHeaders } from "../link/exchange-record";
import { upgradeGrouping, type GroupedBy } from "@hopscope/shared/trace/group";
import type { CutBody } from "./part-store";

/** Creates the trace or widens its time span, upgrades its grouping and its name. */
export const UPSERT_TRACE_SQL = `INSERT INTO traces (id, name, name_rank, source, created_at, updated_at, grouped_by)
  VALUES (?, ?, ?, ?, ?, ?, ?)
  ON CONFLICT (id) DO UPDATE SET
  created_at = MIN(created_at, excluded.created_at), updated_at = MAX(updated_at, excluded.updated_at),
  grouped_by = CASE
    WHEN grouped_by IN ('single', 'session', 'conversation') AND excluded.grouped_by IN ('agent-session', 'tools-offered', 'probe', 'agent-start', 'mcp-client') THEN excluded.grouped_by
    WHEN grouped_by = 'single' AND excluded.grouped_by = 'conversation' THEN 'conversation' ELSE grouped_by END,
  name = CASE WHEN name_custom = 0 AND excluded.name_rank > name_rank THEN excluded.name ELSE name END,
  name_rank = MAX(name_rank, excluded.name_rank)`;

export const INSERT_EXCHANGE_SQL = `INSERT OR REPLACE INTO exchanges (id, trace_id, seq, tap, method, url, upstream, status, state, error,
  t_start, t_request_end, t_first_byte, t_end, request_headers, response_headers, request_body, request_meta, response_body,
  response_meta, chunks, classification, tool_messages, simulated, title, request_part, request_part_at)
  VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`;

/**
 * Retention (MAX_TRACES): after a batch, delete the least recently updated traces beyond the cap, their
 * exchanges with them (ON DELETE CASCADE), then the parts no exchange refers to any more (part-store.ts).
 * Saved traces (saved_as set) are never pruned. SQLite reuses the freed pages, so the database file stops
 * growing once the cap is reached.
 */
export const PRUNE_TRACES_SQL = `DELETE FROM traces WHERE id IN (
  SELECT id FROM traces WHERE saved_as IS NULL ORDER BY updated_at ASC, id ASC
  LIMIT max(0, (SELECT count(*) FROM traces) - ?)
) RETURNING id`;

export type SqlValue = string | number | null | Uint8Array;

/**
 * The trace upserts for a batch: one per trace, not one per exchange (a session's or conversation's exchanges
 * arrive together), with the same outcome as upserting after each exchange in order: the earliest start, the
 * latest end, the first of the best-ranked names, the first exchange's source and its grouping upgraded by the
 * later ones (upgradeGrouping). Positional: binding by name costs more.
 */
export function traceParams(records: readonly ExchangeRecord[]): SqlValue[][] {
  const byTrace = new Map<
    string,
    { best: ExchangeRecord; source: ExchangeRecord["source"]; start: number; end: number; groupedBy: GroupedBy }
  >();
  for (const r of records) {
    const t = r.summary.timings;
    const end = t.end ?? t.start;
    const seen = byTrace.get(r.summary.traceId);
    if (!seen) {
      byTrace.set(r.summary.traceId, { best: r, source: r.source, start: t.start, end, groupedBy: r.groupedBy });
      continue;
    }
    if (r.titleRank > seen.best.titleRank) seen.best = r;
    seen.start = Math.min(seen.start, t.start);
    seen.end = Math.max(seen.end, end);
    seen.groupedBy = upgradeGrouping(seen.groupedBy, r.groupedBy);
  }
  return [...byTrace].map(([id, m]) => [
    id,
    m.best.title,
    m.best.titleRank,
    m.source ?? "live",
    m.start,
    m.end,
    m.groupedBy,
  ]);
}

/** One exchange's insert parameters (positional); `cut`: its request body less a part (part-store.ts). */
export function exchangeParams(r: ExchangeRecord, cut: CutBody | null = null): SqlValue[] {
  const s = r.summary;
  const t = s.timings;
  return [
    s.id,
    s.traceId,
    s.seq,
    s.tap,
    s.method,
    s.url,
    s.upstream,
    s.status,
    s.state,
    s.error,
    t.start,
    t.requestEnd,
    t.firstByte,
    t.end,
    headersText(r.requestHeaders),
    headersText(r.responseHeaders),
    cut ? cut.data : (r.requestBody?.data ?? null),
    metaJson(r.requestBody),
    r.responseBody?.data ?? null,
    metaJson(r.responseBody),
    chunksJson(r.chunks),
    JSON.stringify(s.classification),
    r.toolMessages ? JSON.stringify(r.toolMessages) : null,
    r.simulated === null ? null : r.simulated ? 1 : 0,
    r.title,
    cut ? cut.part : null,
    cut ? cut.at : null,
  ];
}

/**
 * A header block is stored as it is (rows.ts reads both forms): building, redacting and serialising pairs
 * for every live exchange cost more than its SQLite row. Pairs (imports, replays) are stored as JSON.
 */
export function headersText(h: RecordedHeaders): string {
  return typeof h === "string" ? h : JSON.stringify(h);
}

/**
 * JSON.stringify of the body's BodyMeta, written out: the same text at a quarter of the cost, twice per
 * exchange (its fields are an enum, integers, a boolean and a string that is JSON-quoted).
 */
export function metaJson(b: StoredBody | null): string {
  if (!b) return "null";
  const contentType = b.contentType === null ? "null" : JSON.stringify(b.contentType);
  return `{"encoding":"${b.encoding}","size":${b.size},"storedSize":${b.storedSize},"truncated":${b.truncated},"contentType":${contentType}}`;
}

/**
 * JSON.stringify of the chunk list, written out: its objects have four numbers each, and the generic
 * stringify costs several times this once per exchange. A number that JSON cannot hold goes the long way.
 */
export function chunksJson(chunks: readonly Chunk[]): string {
  let out = "[";
  for (const c of chunks) {
    if (!Number.isFinite(c.t)) return JSON.stringify(chunks);
    out += `${out.length > 1 ? "," : ""}{"index":${c.index},"t":${c.t},"offset":${c.offset},"size":${c.size}}`;
  }
  return `${out}]`;
}
