/**
 * OpenTelemetry export as a file: OTLP/JSON (an `ExportTraceServiceRequest`, what an OTLP/HTTP receiver
 * accepts at `/v1/traces` with `Content-Type: application/json`). The spans come from the SDK
 * (./otlp-spans.ts) and are serialised by @opentelemetry/otlp-transformer, not written by hand.
 */
import type { TraceBundle } from "@hopscope/shared/trace/bundle";
import { JsonTraceSerializer } from "@opentelemetry/otlp-transformer";
import { bundleToSpans } from "./otlp-spans";

export function exportOtlp(bundle: TraceBundle): string {
  const bytes = JsonTraceSerializer.serializeRequest(bundleToSpans(bundle));
  if (!bytes) throw new Error(`OTLP serialisation of trace ${bundle.trace.id} produced nothing`);
  // Re-indented so the downloaded file is readable; the content is the serializer's.
  return `${JSON.stringify(JSON.parse(new TextDecoder().decode(bytes)), null, 2)}\n`;
}
