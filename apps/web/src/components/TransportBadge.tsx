/**
 * The mark on the MCP lane's name saying how the host reaches its MCP server when it is not HTTP: "stdio"
 * for a server recorded through the stdio tap (`hopscope wrap`), with the server's command on hover.
 */
import type { ExchangeSummary } from "@hopscope/shared/trace/schemas";
import { STDIO_UPSTREAM_PREFIX, isStdioExchange } from "@hopscope/shared/trace/stdio-ingest";
import s from "./TransportBadge.module.css";

export function TransportBadge({ exchanges }: { exchanges: readonly ExchangeSummary[] }) {
  const stdio = exchanges.find(isStdioExchange);
  if (!stdio) return null;
  const command = stdio.upstream.slice(STDIO_UPSTREAM_PREFIX.length);
  return (
    <span
      class={s.badge}
      data-testid="mcp-transport"
      title={`The host talks to this MCP server over its stdin and stdout: ${command}`}
    >
      stdio
    </span>
  );
}
