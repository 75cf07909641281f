/**
 * A trace bundle as OpenTelemetry spans, created with the OpenTelemetry JS SDK (a BasicTracerProvider
 * whose processor collects the ended spans) so the OTLP file and the live export serialise real
 * `ReadableSpan`s rather than hand-built JSON.
 *
 * Shape of the span tree (all spans share one trace id):
 * - root: the `/agent` exchange (`invoke_agent`, SERVER), or a synthetic INTERNAL root named after the
 *   trace when there is none (traffic from a bare client).
 * - under the root, one CLIENT span per exchange: `chat qwen2.5:7b`, `tools/list`, …; a `tools/call` is
 *   wrapped in an INTERNAL `execute_tool {tool}` span (the host running the tool) with the MCP
 *   `tools/call {tool}` CLIENT span inside it.
 * - the notes file's changes are `hopscope.notes.changed` events (./otlp-notes.ts): on the `execute_tool`
 *   span of the call that caused each, else on the root.
 * - span links follow the trace's links: `tools/call` → the model response that asked for it, and the
 *   next `chat` → the `tools/call` whose result it carried.
 *
 * Ids: the trace id is the recorded `traceparent`'s (so spans join the host's own telemetry), else the
 * trace id when it is 32 hex digits, else derived from it. The root's span id is the parent id the host
 * put in the traceparent of its outgoing calls, so those calls' recorded parent is the root. Other span
 * ids are derived from the trace id and exchange id, so exporting the same trace twice gives the same file.
 */
import { createHash } from "node:crypto";
import {
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  type HrTime,
  type Link as SpanLink,
  type Span,
} from "@opentelemetry/api";
import { resourceFromAttributes } from "@opentelemetry/resources";
import {
  AlwaysOnSampler,
  BasicTracerProvider,
  type IdGenerator,
  type ReadableSpan,
  type SpanProcessor,
} from "@opentelemetry/sdk-trace-base";
import { ATTR_SERVICE_NAME } from "@opentelemetry/semantic-conventions";
import type { TraceBundle } from "@hopscope/shared/trace/bundle";
import type { Exchange } from "@hopscope/shared/trace/schemas";
import { parseTraceparent } from "@hopscope/shared/trace/traceparent";
import { GENERATOR } from "./generator";
import { GEN_AI, HOPSCOPE, describeExchange, type SpanDescription } from "./otlp-attributes";
import { NOTES_EVENT, notesEvents, type NotesEvent } from "./otlp-notes";
import { headerValue } from "@hopscope/shared/trace/json-text";
import { minOf, maxOf } from "@hopscope/shared/json/extent";

/** Hands the SDK the ids planned for the next span (the SDK asks for them while starting it). */
class PlannedIds implements IdGenerator {
  traceId = "";
  spanId = "";
  generateTraceId(): string {
    return this.traceId;
  }
  generateSpanId(): string {
    return this.spanId;
  }
}

/** Keeps every ended span; `onEnd` runs synchronously inside `span.end()`. */
class Collector implements SpanProcessor {
  readonly spans: ReadableSpan[] = [];
  onStart(): void {}
  onEnd(span: ReadableSpan): void {
    this.spans.push(span);
  }
  forceFlush(): Promise<void> {
    return Promise.resolve();
  }
  shutdown(): Promise<void> {
    return Promise.resolve();
  }
}

/** Longest string attribute value sent (characters); longer values are cut by the SDK. */
export const MAX_ATTRIBUTE_LENGTH = 8192;

const hex = (seed: string, length: number) => createHash("sha256").update(seed).digest("hex").slice(0, length);

/**
 * Epoch milliseconds as HrTime. Passing a plain number would let the SDK read times before this process
 * started as `performance.now()` offsets, which would misplace every imported trace.
 */
function hrTime(ms: number): HrTime {
  const seconds = Math.floor(ms / 1000);
  const nanos = Math.min(999_999_999, Math.round((ms - seconds * 1000) * 1e6));
  return [seconds, nanos];
}

function traceparentOf(ex: Exchange) {
  return parseTraceparent(headerValue(ex.requestHeaders, "traceparent"));
}

/** The trace id every span of the bundle gets (see the module comment). */
export function otlpTraceId(bundle: TraceBundle): string {
  const recorded = bundle.exchanges.map(traceparentOf).find((tp) => tp !== null);
  if (recorded) return recorded.traceId;
  return /^[0-9a-f]{32}$/.test(bundle.trace.id) && !/^0+$/.test(bundle.trace.id)
    ? bundle.trace.id
    : hex(`trace:${bundle.trace.id}`, 32);
}

/** The parent id the host used most on its outgoing calls (model and MCP taps), if any. */
function hostSpanId(bundle: TraceBundle, traceId: string): string | undefined {
  const counts = new Map<string, number>();
  for (const ex of bundle.exchanges) {
    const tp = ex.tap === "agent" ? null : traceparentOf(ex);
    if (tp && tp.traceId === traceId) counts.set(tp.parentId, (counts.get(tp.parentId) ?? 0) + 1);
  }
  return [...counts].sort((a, b) => b[1] - a[1])[0]?.[0];
}

const endOf = (ex: Exchange) => ex.timings.end ?? ex.timings.firstByte ?? ex.timings.requestEnd ?? ex.timings.start;

interface Planned {
  id: string;
  kind: SpanKind;
  at: number;
  parent?: Span;
  d: SpanDescription;
  links?: SpanLink[];
}

/** Starts and ends the bundle's spans with the ids planned for them, and hangs notes-file events on them. */
class SpanWriter {
  readonly ids = new PlannedIds();
  readonly collector = new Collector();
  private readonly tracer;
  readonly notes;

  constructor(
    bundle: TraceBundle,
    readonly traceId: string,
  ) {
    const provider = new BasicTracerProvider({
      idGenerator: this.ids,
      sampler: new AlwaysOnSampler(),
      resource: resourceFromAttributes({ [ATTR_SERVICE_NAME]: "hopscope" }),
      // Tool arguments and results can be whole files; the bytes stay in hopscope, a backend gets a preview.
      spanLimits: { attributeValueLengthLimit: MAX_ATTRIBUTE_LENGTH },
      spanProcessors: [this.collector],
    });
    this.tracer = provider.getTracer(GENERATOR.name, GENERATOR.version);
    this.ids.traceId = traceId;
    this.notes = notesEvents(bundle);
  }

  spanId(ex: Exchange, role: string): string {
    return hex(`${this.traceId}:${ex.id}:${role}`, 16);
  }

  start({ id, kind, at, parent, d, links = [] }: Planned): Span {
    this.ids.spanId = id;
    const ctx = parent ? trace.setSpan(ROOT_CONTEXT, parent) : ROOT_CONTEXT;
    const span = this.tracer.startSpan(d.name, { kind, startTime: hrTime(at), attributes: d.attributes, links }, ctx);
    if (d.error) span.setStatus({ code: SpanStatusCode.ERROR, message: d.error.message });
    return span;
  }

  finish(span: Span, ex: Exchange): void {
    if (ex.timings.firstByte !== null) span.addEvent("hopscope.first_byte", hrTime(ex.timings.firstByte));
    span.end(hrTime(endOf(ex)));
  }

  addNotes(span: Span, events: readonly NotesEvent[] | undefined): void {
    for (const e of events ?? []) span.addEvent(NOTES_EVENT, e.attributes, hrTime(e.at));
  }
}

/** Every span of the bundle, ended, in the order they ended (the root last). */
export function bundleToSpans(bundle: TraceBundle): ReadableSpan[] {
  const traceId = otlpTraceId(bundle);
  const w = new SpanWriter(bundle, traceId);
  const byExchange = new Map<number, Span>();

  const agent = bundle.exchanges.find((ex) => ex.classification.kind === "agent");
  const rootId = hostSpanId(bundle, traceId) ?? hex(`${traceId}:root`, 16);
  const times = [bundle.trace.createdAt];
  for (const ex of bundle.exchanges) times.push(ex.timings.start, endOf(ex));
  const root = agent
    ? w.start({ id: rootId, kind: SpanKind.SERVER, at: agent.timings.start, d: describeExchange(agent) })
    : w.start({
        id: rootId,
        kind: SpanKind.INTERNAL,
        at: minOf(times),
        d: { name: "hopscope trace", attributes: { [HOPSCOPE.traceName]: bundle.trace.name } },
      });
  if (agent) byExchange.set(agent.id, root);

  for (const ex of bundle.exchanges) {
    if (ex === agent) continue;
    const links: SpanLink[] = bundle.trace.links
      .filter((l) => l.to === ex.id && byExchange.has(l.from))
      .map((l) => ({
        context: byExchange.get(l.from)!.spanContext(),
        attributes: { "hopscope.link.kind": l.kind, [GEN_AI.toolName]: l.toolName },
      }));
    byExchange.set(ex.id, exchangeSpans(w, bundle, ex, root, links));
  }
  w.addNotes(root, w.notes.root);
  if (agent) w.addNotes(root, w.notes.byExchange.get(agent.id));
  if (agent) w.finish(root, agent);
  else root.end(hrTime(maxOf(times)));
  return w.collector.spans;
}

/** An exchange's span under the root (ended); for a tools/call, the host's `execute_tool` span around it. */
function exchangeSpans(w: SpanWriter, bundle: TraceBundle, ex: Exchange, root: Span, links: SpanLink[]): Span {
  const d = describeExchange(ex);
  const c = ex.classification;
  if (c.kind === "mcp" && c.method === "tools/call" && c.toolName) {
    // The host executing the tool (GenAI `execute_tool`), with the MCP request it made to do so inside.
    const toolAttributes = {
      [GEN_AI.operationName]: "execute_tool",
      [GEN_AI.toolName]: c.toolName,
      ...toolCallIdOf(bundle, ex),
      [HOPSCOPE.exchangeId]: ex.id,
    };
    const tool = w.start({
      id: w.spanId(ex, "tool"),
      kind: SpanKind.INTERNAL,
      at: ex.timings.start,
      parent: root,
      d: { name: `execute_tool ${c.toolName}`, attributes: toolAttributes, ...(d.error ? { error: d.error } : {}) },
      links,
    });
    const mcp = w.start({ id: w.spanId(ex, "mcp"), kind: SpanKind.CLIENT, at: ex.timings.start, parent: tool, d });
    w.finish(mcp, ex);
    w.addNotes(tool, w.notes.byExchange.get(ex.id));
    tool.end(hrTime(endOf(ex)));
    return mcp;
  }
  const span = w.start({
    id: w.spanId(ex, "http"),
    kind: SpanKind.CLIENT,
    at: ex.timings.start,
    parent: root,
    d,
    links,
  });
  // A change caused by an exchange that is not a tools/call with a tool name (a bare MCP client): on its span.
  w.addNotes(span, w.notes.byExchange.get(ex.id));
  w.finish(span, ex);
  return span;
}

/** The id the model gave the tool call this tools/call carries out, as a GenAI attribute (none when unknown). */
function toolCallIdOf(bundle: TraceBundle, ex: Exchange): Record<string, string> {
  const call = bundle.trace.links.find((l) => l.kind === "tool-call" && l.to === ex.id);
  const source = call && bundle.exchanges.find((e) => e.id === call.from)?.classification;
  const callIndex = call?.toolCallIndex;
  const callId = source?.kind === "model.chat" && callIndex !== undefined ? source.toolCalls[callIndex]?.id : undefined;
  return callId ? { [GEN_AI.toolCallId]: callId } : {};
}
