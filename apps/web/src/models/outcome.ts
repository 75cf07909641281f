/**
 * How an exchange ended, for marking it in the sequence view. MCP has two kinds of failure and the
 * article insists they differ: a protocol error (JSON-RPC `error`: the request was wrong — a bug for
 * the developer) and a tool error (a normal result with `isError: true` — a message for the model,
 * which can fix its call). The first is a failure; the second is the system working as designed.
 */
import type { ExchangeSummary } from "@hopscope/shared/trace/schemas";

export type Outcome = "ok" | "pending" | "error" | "protocol-error" | "tool-error";

/**
 * A client's `GET` on the MCP endpoint answered 405: the client offered to listen for server messages on
 * a stream and the server says it offers none, one of the two answers the MCP transport allows (the SDK
 * clients and the Inspector all try it). Not a failure: marking it red taught learners their session broke.
 */
export function isNoStreamAnswer(x: ExchangeSummary): boolean {
  return x.tap === "mcp" && x.method === "GET" && x.status === 405 && x.state === "complete";
}

export const NO_STREAM_NOTE =
  "The client asked to open a stream for messages from the server (GET with Accept: text/event-stream); this server offers none and answers 405 Method Not Allowed, as the MCP transport allows. Not an error: the session goes on over POST.";

export function outcomeOf(x: ExchangeSummary): Outcome {
  if (x.state === "error" || x.state === "aborted" || x.error) return "error";
  if (isNoStreamAnswer(x)) return "ok";
  if (x.status !== null && x.status >= 400) return "error";
  const c = x.classification;
  if (c.kind === "mcp" && c.outcome === "protocol-error") return "protocol-error";
  if (c.kind === "mcp" && c.outcome === "http-error") return "error";
  if (c.kind === "mcp" && c.outcome === "tool-error") return "tool-error";
  if (x.state === "pending" || x.state === "streaming") return "pending";
  return "ok";
}
