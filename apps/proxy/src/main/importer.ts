/**
 * Stores a trace read from a file (hopscope bundle or HAR, already validated by the readers in
 * ./export): a new trace id and new exchange ids, so importing the same file twice, or a file of a
 * trace that is still in the database, never clashes. One transaction: a failure stores nothing.
 */
import type { TraceBundle } from "@hopscope/shared/trace/bundle";
import { randomHex } from "@hopscope/shared/trace/traceparent";
import type { TraceSummary } from "@hopscope/shared/trace/schemas";
import type { RecordingLink } from "../link/calls";
import type { Announce } from "../link/frames";
import { recordOfExchange } from "../link/exchange-record";

export interface ImportDeps {
  link: RecordingLink;
  announce: Announce;
}

export async function importBundle(bundle: TraceBundle, deps: ImportDeps): Promise<TraceSummary> {
  const traceId = randomHex(16, (a) => crypto.getRandomValues(a));
  const ids = await deps.link.call("allocateIds", bundle.exchanges.length);
  const idMap = new Map(bundle.exchanges.map((e, i) => [e.id, ids[i] as number]));
  const order = new Map(bundle.trace.exchanges.map((s, i) => [s.id, i + 1]));
  const { name, groupedBy } = bundle.trace;
  const records = bundle.exchanges.map((ex) =>
    recordOfExchange(ex, {
      id: idMap.get(ex.id) as number,
      traceId,
      seq: order.get(ex.id) ?? ex.seq,
      title: name,
      groupedBy,
    }),
  );
  const summary = await deps.link.call(
    "insertTrace",
    { id: traceId, name, groupedBy, createdAt: bundle.trace.createdAt, updatedAt: bundle.trace.updatedAt },
    records,
  );
  deps.announce({ type: "trace.updated", trace: summary, links: await deps.link.call("links", traceId) });
  return summary;
}
