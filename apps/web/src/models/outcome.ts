/**
 * How an exchange ended, for marking it in the sequence view. MCP has two kinds of failure and the
 * article insists they differ: a protocol error (JSON-RPC `error`: the request was wrong — a bug for
 * the developer) and a tool error (a normal result with `isError: true` — a message for the model,
 * which can fix its call). The first is a failure; the second is the system working as designed.
 */
import type { ExchangeSummary } from "@hopscope/shared/trace/schemas";

export type Outcome = "ok" | "pending" | "error" | "protocol-error" | "tool-error";

export { isNoStreamAnswer } from "@hopscope/shared/trace/no-stream";
import { isNoStreamAnswer } from "@hopscope/shared/trace/no-stream";

export const NO_STREAM_NOTE =
  "The client asked to open a stream for messages from the server (GET with Accept: text/event-stream); this server offers none and answers 405 Method Not Allowed, as the MCP transport allows. Not an error: the session goes on over POST.";

export function outcomeOf(x: ExchangeSummary): Outcome {
  if (x.state === "error" || x.state === "aborted" || x.error) return "error";
  if (isNoStreamAnswer(x)) return "ok";
  if (x.status !== null && x.status >= 400) return "error";
  const c = x.classification;
  // -32601 to an optional probe (prompts/list, resources/list): the server offers none, nothing failed.
  if (c.kind === "mcp" && c.outcome === "not-offered") return "ok";
  if (c.kind === "mcp" && c.outcome === "protocol-error") return "protocol-error";
  if (c.kind === "mcp" && c.outcome === "http-error") return "error";
  if (c.kind === "mcp" && c.outcome === "tool-error") return "tool-error";
  if (x.state === "pending" || x.state === "streaming") return "pending";
  return "ok";
}
