/**
 * What a trace's grouping means, in words (docs/recorder.md, "Trace grouping"): which rule put its exchanges
 * together when the requests carried no W3C traceparent.
 */
import type { TraceSummary } from "@hopscope/shared/trace/schemas";

const WORDS: Record<TraceSummary["groupedBy"], string> = {
  traceparent: "grouped by W3C traceparent",
  conversation: "one conversation: each turn resends the one before",
  session: "one MCP session",
  "agent-session": "one agent run: its requests carry the agent's session id",
  "tools-offered": "one agent run: its model request offers the tools its MCP session listed",
  probe: "one agent run: the client that probed the model server asked the model",
  "agent-start": "one agent run: its MCP sessions opened as the agent started",
  "mcp-client": "one agent run: its MCP sessions opened together by one MCP client (the name it gives)",
  single: "",
};

export function groupingWords(groupedBy: TraceSummary["groupedBy"] | undefined): string {
  return groupedBy ? WORDS[groupedBy] : "";
}
