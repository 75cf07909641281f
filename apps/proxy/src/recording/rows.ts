/**
 * Rows of the exchanges and traces tables, validated when read back (SQLite is a boundary too), and
 * their mapping to the trace model.
 */
import { z } from "zod";
import {
  ChunkSchema,
  ClassificationSchema,
  GroupedBySchema,
  HeaderListSchema,
  type Exchange,
  type ExchangeSummary,
  type TraceSummary,
} from "@hopscope/shared/trace/schemas";
import { toBody, type StoredBody } from "../link/stored-body";
import { fromHeaderBlock } from "@hopscope/shared/trace/header-block";
import { NO_STREAM_SQL } from "@hopscope/shared/trace/no-stream";

const json = <T extends z.ZodType>(schema: T) => z.string().transform((s) => schema.parse(JSON.parse(s)) as z.infer<T>);

/** Headers as stored: JSON pairs, or a live exchange's header block (write-sql.ts, headersText). */
const headers = z
  .string()
  .transform((s) => HeaderListSchema.parse(s.startsWith("[") ? JSON.parse(s) : fromHeaderBlock(s)));

export const BodyMetaSchema = z.object({
  encoding: z.enum(["utf8", "base64"]),
  size: z.number().int(),
  storedSize: z.number().int(),
  truncated: z.boolean(),
  contentType: z.string().nullable(),
});
export type BodyMeta = z.infer<typeof BodyMetaSchema>;

export const ExchangeSummaryRowSchema = z.object({
  id: z.number().int(),
  trace_id: z.string(),
  seq: z.number().int(),
  tap: z.enum(["agent", "model", "mcp"]),
  method: z.string(),
  url: z.string(),
  upstream: z.string(),
  status: z.number().int().nullable(),
  state: z.enum(["pending", "streaming", "complete", "error", "aborted"]),
  error: z.string().nullable(),
  t_start: z.number(),
  t_request_end: z.number().nullable(),
  t_first_byte: z.number().nullable(),
  t_end: z.number().nullable(),
  request_meta: json(BodyMetaSchema.nullable()),
  response_meta: json(BodyMetaSchema.nullable()),
  chunk_count: z.number().int(),
  classification: json(ClassificationSchema),
});

export const ExchangeRowSchema = ExchangeSummaryRowSchema.extend({
  request_headers: headers,
  response_headers: headers,
  request_body: z.union([z.string(), z.instanceof(Buffer), z.null()]),
  response_body: z.union([z.string(), z.instanceof(Buffer), z.null()]),
  chunks: json(z.array(ChunkSchema)),
  request_part: z.number().int().nullable(),
  request_part_at: z.number().int().nullable(),
  request_part_bytes: z.instanceof(Buffer).nullable(),
});

/** Whole exchange rows, their request part (part-store.ts) joined: `${EXCHANGE_ROWS} WHERE …`. */
export const EXCHANGE_ROWS = `SELECT e.*, json_array_length(e.chunks) AS chunk_count, p.bytes AS request_part_bytes
  FROM exchanges e LEFT JOIN parts p ON p.id = e.request_part`;

export const SUMMARY_COLUMNS = `id, trace_id, seq, tap, method, url, upstream, status, state, error, t_start, t_request_end,
  t_first_byte, t_end, request_meta, response_meta, json_array_length(chunks) AS chunk_count, classification`;

export function toSummary(r: z.infer<typeof ExchangeSummaryRowSchema>): ExchangeSummary {
  return {
    id: r.id,
    traceId: r.trace_id,
    seq: r.seq,
    tap: r.tap,
    method: r.method,
    url: r.url,
    upstream: r.upstream,
    status: r.status,
    state: r.state,
    error: r.error,
    timings: { start: r.t_start, requestEnd: r.t_request_end, firstByte: r.t_first_byte, end: r.t_end },
    requestSize: r.request_meta?.size ?? 0,
    responseSize: r.response_meta?.size ?? 0,
    chunkCount: r.chunk_count,
    classification: r.classification,
  };
}

function storedOf(data: string | Buffer | null, meta: BodyMeta | null): StoredBody | null {
  if (data === null || meta === null) return null;
  return { ...meta, data };
}

/** The request body's bytes as they arrived: a part stored on its own is put back where it was cut out. */
function requestData(r: z.infer<typeof ExchangeRowSchema>): string | Buffer | null {
  if (r.request_part === null) return r.request_body;
  const { request_body: body, request_part_bytes: part, request_part_at: at } = r;
  if (!Buffer.isBuffer(body) || !part || at === null || at > body.length)
    throw new Error(`exchange ${r.id}: its request body's part ${r.request_part} is missing or does not fit`);
  return Buffer.concat([body.subarray(0, at), part, body.subarray(at)]);
}

export function toExchange(r: z.infer<typeof ExchangeRowSchema>): Exchange {
  const req = storedOf(requestData(r), r.request_meta);
  const res = storedOf(r.response_body, r.response_meta);
  return {
    ...toSummary(r),
    requestHeaders: r.request_headers,
    requestBody: req ? toBody(req) : null,
    responseHeaders: r.response_headers,
    responseBody: res ? toBody(res) : null,
    chunks: r.chunks,
  };
}

export const TraceRowSchema = z.object({
  id: z.string(),
  name: z.string(),
  source: z.enum(["live", "imported"]),
  created_at: z.number(),
  updated_at: z.number(),
  grouped_by: GroupedBySchema,
  saved_as: z.string().nullable(),
  exchange_count: z.number().int(),
  error_count: z.number().int(),
  sim_count: z.number().int(),
  sim_max: z.number().int().nullable(),
});

export const TRACE_COLUMNS = `t.id, t.name, t.source, t.created_at, t.updated_at, t.grouped_by, t.saved_as,
  (SELECT COUNT(*) FROM exchanges e WHERE e.trace_id = t.id) AS exchange_count,
  (SELECT COUNT(*) FROM exchanges e WHERE e.trace_id = t.id AND (e.state IN ('error', 'aborted') OR e.status >= 400) AND NOT ${NO_STREAM_SQL}) AS error_count,
  (SELECT COUNT(e.simulated) FROM exchanges e WHERE e.trace_id = t.id) AS sim_count,
  (SELECT MAX(e.simulated) FROM exchanges e WHERE e.trace_id = t.id) AS sim_max`;

export function toTraceSummary(r: z.infer<typeof TraceRowSchema>): TraceSummary {
  return {
    id: r.id,
    name: r.name,
    source: r.source,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    exchangeCount: r.exchange_count,
    errorCount: r.error_count,
    groupedBy: r.grouped_by,
    simulated: r.sim_count === 0 ? null : r.sim_max === 1,
    savedAs: r.saved_as,
  };
}
