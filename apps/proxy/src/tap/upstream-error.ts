/** What the tap answers when it cannot get a response from its upstream (502/504, JSON naming the upstream). */
import type { Tap } from "@hopscope/shared/trace/schemas";

export class UpstreamTimeoutError extends Error {
  constructor(readonly upstream: string, readonly timeoutMs: number) {
    super(`upstream ${upstream} sent nothing for ${timeoutMs} ms`);
  }
}

const WHAT: Record<Tap, string> = { model: "model server", mcp: "MCP server", agent: "agent host" };
const ENV: Record<Tap, string> = { model: "MODEL_UPSTREAM", mcp: "MCP_UPSTREAM", agent: "AGENT_UPSTREAM" };

export function upstreamFailure(tap: Tap, upstream: string, err: Error): { status: 502 | 504; message: string } {
  if (err instanceof UpstreamTimeoutError) {
    return {
      status: 504,
      message: `the ${WHAT[tap]} at ${upstream} did not answer within ${err.timeoutMs} ms (hopscope ${tap} tap); check that it is not stuck, or raise UPSTREAM_TIMEOUT_MS`,
    };
  }
  const code = (err as NodeJS.ErrnoException).code;
  return {
    status: 502,
    message: `the ${WHAT[tap]} at ${upstream} is unreachable (${code ?? err.message}) (hopscope ${tap} tap); start it, or point ${ENV[tap]} at it`,
  };
}
