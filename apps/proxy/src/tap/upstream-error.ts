/** What the tap answers when it cannot get a response from its upstream (502/504, JSON naming the upstream). */
import type { Tap } from "@hopscope/shared/trace/schemas";

export class UpstreamTimeoutError extends Error {
  constructor(
    readonly upstream: string,
    readonly timeoutMs: number,
  ) {
    super(`upstream ${upstream} sent nothing for ${timeoutMs} ms`);
  }
}

const WHAT: Record<Tap, string> = { model: "model server", mcp: "MCP server", agent: "agent host" };
const ENV: Record<Tap, string> = { model: "MODEL_UPSTREAM", mcp: "MCP_UPSTREAM", agent: "AGENT_UPSTREAM" };

/**
 * Errors of a connection that was made: the upstream reset it, or (EOF, the relay's own code) closed it
 * without a byte of an answer. The rest mean it was never reached.
 */
const CLOSED = new Set(["ECONNRESET", "EPIPE", "ECONNABORTED", "EOF"]);

export function upstreamFailure(tap: Tap, upstream: string, err: Error): { status: 502 | 504; message: string } {
  if (err instanceof UpstreamTimeoutError) {
    return {
      status: 504,
      message: `the ${WHAT[tap]} at ${upstream} did not answer within ${err.timeoutMs} ms (hopscope ${tap} tap); check that it is not stuck, or raise UPSTREAM_TIMEOUT_MS`,
    };
  }
  const code = (err as NodeJS.ErrnoException).code;
  const where = `the ${WHAT[tap]} at ${upstream}`;
  if (code !== undefined && CLOSED.has(code)) {
    // It was reached: it took the connection (or the request) and dropped it without a word.
    return {
      status: 502,
      message: `${where} closed the connection before answering${code === "EOF" ? "" : ` (${code})`} (hopscope ${tap} tap); check its log, and that ${ENV[tap]} points at the ${WHAT[tap]}`,
    };
  }
  // Our own errors (a malformed response, one nobody asked for) say what happened and name the upstream.
  if (code === undefined) return { status: 502, message: `${err.message} (hopscope ${tap} tap)` };
  return {
    status: 502,
    message: `${where} is unreachable (${code}) (hopscope ${tap} tap); start it, or point ${ENV[tap]} at it`,
  };
}
