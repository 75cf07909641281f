/**
 * A client's `GET` on the MCP endpoint answered 405: the client offered to listen for server messages on
 * a stream and the server says it offers none, one of the two answers the MCP transport allows (the SDK
 * clients and the Inspector all try it). Not a failure: marking it red, or counting it as a trace's error,
 * taught learners their session broke. One rule for the timeline, the trace list's counts and imports.
 */
import type { ExchangeSummary } from "./schemas";

export function isNoStreamAnswer(x: Pick<ExchangeSummary, "tap" | "method" | "status" | "state">): boolean {
  return x.tap === "mcp" && x.method === "GET" && x.status === 405 && x.state === "complete";
}

/** The same rule as a SQL condition on the exchanges table aliased `e` (the stored traces' error counts). */
export const NO_STREAM_SQL = "(e.tap = 'mcp' AND e.method = 'GET' AND e.status = 405 AND e.state = 'complete')";
