/**
 * Live export to an OpenTelemetry backend (OTEL_EXPORTER_OTLP_ENDPOINT): a trace is sent once it has been
 * quiet for `quietMs` with no exchange of it in flight, so one question becomes one export. A trace that
 * changes again later (a follow-up turn with the same traceparent) is sent again with its new spans.
 * Exporting runs after recording and never holds up the taps; failures are logged.
 */
import type { RecordingLink } from "../link/calls";
import type { InFlight } from "./in-flight";
import type { Logger } from "../logger";
import { createTraceBundle } from "./export/hopscope";
import type { TraceBundle } from "@hopscope/shared/trace/bundle";
import type { OtlpLiveExporter } from "./export/otlp-live";

export class OtlpForwarder {
  private readonly timers = new Map<string, NodeJS.Timeout>();

  constructor(
    private readonly deps: {
      exporter: OtlpLiveExporter;
      link: RecordingLink;
      inFlight: InFlight;
      logger: Logger;
      quietMs: number;
      /** Adds what the bundle carries besides exchanges (the notes file's changes), as the file export does. */
      complete?: (bundle: TraceBundle) => TraceBundle;
    },
  ) {}

  /** Called whenever a trace changed (after each flush that touched it). */
  traceUpdated(traceId: string): void {
    const old = this.timers.get(traceId);
    if (old) clearTimeout(old);
    const timer = setTimeout(() => this.send(traceId), this.deps.quietMs);
    timer.unref();
    this.timers.set(traceId, timer);
  }

  private send(traceId: string): void {
    this.timers.delete(traceId);
    const { link, inFlight, exporter, logger } = this.deps;
    const exported = async () => {
      if ((await inFlight.exchanges()).some((e) => e.traceId === traceId)) return this.traceUpdated(traceId);
      const trace = await link.call("trace", traceId);
      if (!trace) return;
      const bundle = createTraceBundle(trace, await link.call("exchanges", traceId));
      await exporter.exportBundle(this.deps.complete ? this.deps.complete(bundle) : bundle);
      logger.info({ traceId, url: exporter.url }, "trace exported over OTLP");
    };
    exported().catch((err: unknown) => logger.error({ err, traceId }, "OTLP export failed"));
  }

  async close(): Promise<void> {
    for (const t of this.timers.values()) clearTimeout(t);
    this.timers.clear();
    await this.deps.exporter.shutdown();
  }
}
