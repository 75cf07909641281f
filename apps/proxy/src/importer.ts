/**
 * Stores a trace read from a file (hopscope bundle or HAR, already validated by the readers in
 * ./export): a new trace id and new exchange ids, so importing the same file twice, or a file of a
 * trace that is still in the database, never clashes. One transaction: a failure stores nothing.
 */
import type { TraceBundle } from "@hopscope/shared/trace/bundle";
import { toolMessagesOfText } from "@hopscope/shared/trace/link";
import { randomHex } from "@hopscope/shared/trace/traceparent";
import type { Exchange, TraceSummary } from "@hopscope/shared/trace/schemas";
import type { Recorder } from "./recorder";
import type { TraceStore } from "./store/trace-store";
import type { StoredBody } from "./store/body";
import type { Announce } from "./live/frames";

export interface ImportDeps {
  store: TraceStore;
  recorder: Recorder;
  announce: Announce;
}

export function importBundle(bundle: TraceBundle, deps: ImportDeps): TraceSummary {
  const traceId = randomHex(16, (a) => crypto.getRandomValues(a));
  const ids = deps.recorder.allocateIds(bundle.exchanges.length);
  const idMap = new Map(bundle.exchanges.map((e, i) => [e.id, ids[i] as number]));
  const order = new Map(bundle.trace.exchanges.map((s, i) => [s.id, i + 1]));
  const records = bundle.exchanges.map((ex) => {
    const c = ex.classification;
    return {
      summary: { ...summaryOf(ex), id: idMap.get(ex.id) as number, traceId, seq: order.get(ex.id) ?? ex.seq },
      requestHeaders: ex.requestHeaders,
      responseHeaders: ex.responseHeaders,
      requestBody: stored(ex.requestBody),
      responseBody: stored(ex.responseBody),
      chunks: ex.chunks,
      toolMessages: c.kind === "model.chat" && ex.requestBody?.encoding === "utf8" ? toolMessagesOfText(ex.requestBody.data) : null,
      simulated: c.kind === "model.chat" || c.kind === "model.other" ? (c.simulated ?? null) : null,
      title: bundle.trace.name,
      titleRank: 0,
      groupedBy: bundle.trace.groupedBy,
      source: "imported" as const,
    };
  });
  const summary = deps.store.insertTrace(
    { id: traceId, name: bundle.trace.name, groupedBy: bundle.trace.groupedBy, createdAt: bundle.trace.createdAt, updatedAt: bundle.trace.updatedAt },
    records,
  );
  deps.announce({ type: "trace.updated", trace: summary, links: deps.store.links(traceId) });
  return summary;
}

function summaryOf(ex: Exchange) {
  const { requestHeaders: _rh, responseHeaders: _sh, requestBody: _rb, responseBody: _sb, chunks: _c, ...summary } = ex;
  return summary;
}

function stored(b: Exchange["requestBody"]): StoredBody | null {
  if (!b) return null;
  const data = b.encoding === "utf8" ? b.data : Buffer.from(b.data, "base64");
  return { data, encoding: b.encoding, size: b.size, storedSize: b.storedSize, truncated: b.truncated, contentType: b.contentType ?? null };
}
