/**
 * Live export to an OpenTelemetry backend: when `OTEL_EXPORTER_OTLP_ENDPOINT` is set, the proxy sends
 * each completed trace's spans (./otlp-spans.ts) there with the SDK's OTLP/HTTP exporter (JSON
 * encoding). Failures are returned to the caller, which logs them; exporting never blocks recording.
 */
import { ExportResultCode } from "@opentelemetry/core";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-http";
import type { TraceBundle } from "@hopscope/shared/trace/bundle";
import { bundleToSpans } from "./otlp-spans";

export interface OtlpLiveOptions {
  /** Base endpoint as in `OTEL_EXPORTER_OTLP_ENDPOINT`, e.g. `http://127.0.0.1:4318`; traces go to `/v1/traces` under it. */
  endpoint: string;
  /** Extra request headers, e.g. an API key of a hosted backend. */
  headers?: Record<string, string>;
  /** Per-request timeout; the SDK's default is 10 s. */
  timeoutMillis?: number;
}

export interface OtlpLiveExporter {
  /** Where spans are POSTed. */
  readonly url: string;
  /** Sends the bundle's spans; rejects with the reason when the endpoint refuses them or cannot be reached. */
  exportBundle(bundle: TraceBundle): Promise<void>;
  /** Waits for exports in flight, then closes the connection pool. */
  shutdown(): Promise<void>;
}

/**
 * The traces URL for a base endpoint, as the OTLP exporter spec says for `OTEL_EXPORTER_OTLP_ENDPOINT`:
 * `http://collector:4318` → `http://collector:4318/v1/traces`, `http://host/otel/` → `http://host/otel/v1/traces`.
 */
export function otlpTracesUrl(endpoint: string): string {
  let base: URL;
  try {
    base = new URL(endpoint);
  } catch (err) {
    throw new Error(
      `OTEL_EXPORTER_OTLP_ENDPOINT=${JSON.stringify(endpoint)} is not a URL: use e.g. http://127.0.0.1:4318`,
      { cause: err },
    );
  }
  if (base.protocol !== "http:" && base.protocol !== "https:") {
    throw new Error(`OTEL_EXPORTER_OTLP_ENDPOINT=${JSON.stringify(endpoint)} must be an http:// or https:// URL`);
  }
  return `${base.href.replace(/\/+$/, "")}/v1/traces`;
}

/**
 * Parses `OTEL_EXPORTER_OTLP_HEADERS` as the OTLP exporter spec defines it (`key1=value1,key2=value2`,
 * values percent-encoded), so config.ts can pass headers explicitly. Throws naming the bad entry.
 */
export function parseOtlpHeaders(value: string): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const entry of value.split(",")) {
    if (entry.trim() === "") continue;
    const eq = entry.indexOf("=");
    const name = entry.slice(0, eq).trim();
    if (eq <= 0 || name === "") {
      throw new Error(
        `OTEL_EXPORTER_OTLP_HEADERS: ${JSON.stringify(entry.trim())} is not name=value (use e.g. "x-api-key=abc,x-team=ops")`,
      );
    }
    try {
      headers[name] = decodeURIComponent(entry.slice(eq + 1).trim());
    } catch (err) {
      throw new Error(`OTEL_EXPORTER_OTLP_HEADERS: the value of ${name} is not valid percent-encoding`, { cause: err });
    }
  }
  return headers;
}

export function createOtlpLiveExporter(options: OtlpLiveOptions): OtlpLiveExporter {
  const url = otlpTracesUrl(options.endpoint);
  const exporter = new OTLPTraceExporter({
    url,
    ...(options.headers ? { headers: options.headers } : {}),
    ...(options.timeoutMillis ? { timeoutMillis: options.timeoutMillis } : {}),
  });
  return {
    url,
    exportBundle(bundle) {
      const spans = bundleToSpans(bundle);
      return new Promise((resolve, reject) => {
        exporter.export(spans, (result) => {
          if (result.code === ExportResultCode.SUCCESS) resolve();
          else {
            // The SDK's OTLPExporterError carries the HTTP status and the receiver's answer, which say why.
            const detail = result.error as { code?: unknown; data?: unknown } | undefined;
            const http =
              typeof detail?.code === "number"
                ? ` (HTTP ${detail.code}${typeof detail.data === "string" && detail.data ? `: ${detail.data.slice(0, 300)}` : ""})`
                : "";
            const reason = `${result.error?.message ?? "unknown error"}${http}`;
            reject(
              new Error(`OTLP export of trace ${bundle.trace.id} to ${url} failed: ${reason}`, { cause: result.error }),
            );
          }
        });
      });
    },
    shutdown: () => exporter.shutdown(),
  };
}
