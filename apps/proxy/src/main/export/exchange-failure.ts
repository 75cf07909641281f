/**
 * Whether and why an exchange failed, in one place so the OTLP span status and the Mermaid arrows agree:
 * the client hung up, the upstream failed or answered 4xx/5xx, or MCP answered with a protocol error
 * (JSON-RPC `error`) or a tool error (`result.isError: true`) inside an HTTP 200.
 */
import type { Exchange } from "@hopscope/shared/trace/schemas";

export interface Failure {
  /** A low-cardinality kind, used as OpenTelemetry's `error.type`: "aborted", "502", "-32602", "tool_error". */
  type: string;
  message: string;
}

export function failureOf(ex: Exchange): Failure | undefined {
  const c = ex.classification;
  if (ex.state === "aborted")
    return { type: "aborted", message: ex.error ?? "the client hung up before the response ended" };
  if (ex.state === "error" || (ex.status ?? 0) >= 400) {
    return { type: ex.status ? String(ex.status) : "_OTHER", message: ex.error ?? `HTTP ${ex.status}` };
  }
  if (c.kind === "mcp" && c.outcome === "protocol-error") {
    return { type: String(c.errorCode ?? "_OTHER"), message: c.errorMessage ?? "JSON-RPC error" };
  }
  if (c.kind === "mcp" && c.outcome === "tool-error")
    return { type: "tool_error", message: c.resultText ?? "tool error" };
  return undefined;
}
