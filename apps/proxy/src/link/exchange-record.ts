/**
 * The one place an exchange becomes what the store keeps, for live traffic, imports and replays alike:
 * the same rules for tool messages (what links a tool result to the chat that read it), the stand-in flag
 * and the trace's name candidate.
 */
import type { Body, Chunk, Exchange, ExchangeSummary, HeaderList } from "@hopscope/shared/trace/schemas";
import type { GroupedBy } from "@hopscope/shared/trace/group";
import { toolMessagesOf, type ToolMessage } from "@hopscope/shared/trace/link";
import { tryParseJson } from "@hopscope/shared/json/parse";
import { textOf, type StoredBody } from "./stored-body";

/** Pairs (imports, replays), or a live exchange's header block as the taps saw it, redacted (shared/trace/header-block.ts). */
export type RecordedHeaders = HeaderList | string;

/** Bytes [start, end) of a body. */
export interface ByteRange {
  start: number;
  end: number;
}

/** One completed exchange, ready to be written. */
export interface ExchangeRecord {
  summary: ExchangeSummary;
  requestHeaders: RecordedHeaders;
  responseHeaders: RecordedHeaders;
  requestBody: StoredBody | null;
  /**
   * Where a big live request body's tool list is in its bytes: an agent resends the same list with every
   * request, so the store keeps each distinct list once (recording/part-store.ts). Null: stored whole.
   */
  requestTools: ByteRange | null;
  responseBody: StoredBody | null;
  chunks: Chunk[];
  toolMessages: ToolMessage[] | null;
  simulated: boolean | null;
  /** A name candidate for the trace and how good it is (see recording/trace-title.ts); a better one renames it. */
  title: string;
  titleRank: number;
  groupedBy: GroupedBy;
  source: "live" | "imported";
}

/** What a caller gives: the record less what is derived from it here (tool messages, simulated). */
export type RecordInput = Omit<ExchangeRecord, "toolMessages" | "simulated" | "requestTools"> & {
  requestTools?: ByteRange | null;
  /** The request body parsed as JSON, when the caller has it already (else the body text is parsed). */
  requestJson?: unknown;
};

export function exchangeRecord(input: RecordInput): ExchangeRecord {
  const c = input.summary.classification;
  const chat = c.kind === "model.chat";
  // Written out rather than spread: one record per exchange, on the recording thread, and an object
  // literal of known fields is far cheaper to build (and to collect) than a copy made by rest and spread.
  return {
    summary: input.summary,
    requestHeaders: input.requestHeaders,
    responseHeaders: input.responseHeaders,
    requestBody: input.requestBody,
    requestTools: input.requestTools ?? null,
    responseBody: input.responseBody,
    chunks: input.chunks,
    toolMessages: chat
      ? toolMessagesOf("requestJson" in input ? input.requestJson : tryParseJson(textOf(input.requestBody)))
      : null,
    simulated: chat || c.kind === "model.other" ? (c.simulated ?? null) : null,
    title: input.title,
    titleRank: input.titleRank,
    groupedBy: input.groupedBy,
    source: input.source,
  };
}

/** A recorded exchange (from a file or the store) as a record under new ids (imports, replays). */
export function recordOfExchange(
  ex: Exchange,
  meta: { id?: number; traceId?: string; seq?: number; title: string; groupedBy: GroupedBy },
): ExchangeRecord {
  const summary = summaryOf(ex);
  return exchangeRecord({
    summary: {
      ...summary,
      id: meta.id ?? summary.id,
      traceId: meta.traceId ?? summary.traceId,
      seq: meta.seq ?? summary.seq,
    },
    requestHeaders: ex.requestHeaders,
    responseHeaders: ex.responseHeaders,
    requestBody: storedBodyOf(ex.requestBody),
    responseBody: storedBodyOf(ex.responseBody),
    chunks: ex.chunks,
    // Imported traces keep the name they came with (the trace row is written with it, see insertTrace).
    title: meta.title,
    titleRank: 0,
    groupedBy: meta.groupedBy,
    source: "imported",
  });
}

/** An exchange without its headers, bodies and chunks. */
export function summaryOf(ex: Exchange): ExchangeSummary {
  const { requestHeaders: _rh, responseHeaders: _sh, requestBody: _rb, responseBody: _sb, chunks: _c, ...summary } = ex;
  return summary;
}

/** A body as the API serves it, back to how the store keeps it. */
export function storedBodyOf(b: Body | null): StoredBody | null {
  if (!b) return null;
  const data = b.encoding === "utf8" ? b.data : Buffer.from(b.data, "base64");
  return {
    data,
    encoding: b.encoding,
    size: b.size,
    storedSize: b.storedSize,
    truncated: b.truncated,
    contentType: b.contentType ?? null,
  };
}
