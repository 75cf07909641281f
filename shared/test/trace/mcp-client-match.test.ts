import { describe, expect, it } from "vitest";
import { FallbackGrouper, upgradeGrouping } from "@hopscope/shared/trace/group";
import { mcpClientOf } from "@hopscope/shared/trace/group-mcp";
import { agentRequestOf } from "@hopscope/shared/trace/agent-run";
import { compareClients, mcpClientName } from "@hopscope/shared/trace/mcp-client-match";

// MCP sessions from clients that name themselves (or not) as the wire carries them: an `initialize` of the
// 2025 revisions, a 2026-07-28 request with its `_meta`, and one that names nobody.
const initialize = (name: string) => ({
  jsonrpc: "2.0",
  id: 0,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name, version: "1.0.0" } },
});
const discover = (name: string | null) => ({
  jsonrpc: "2.0",
  id: 0,
  method: "server/discover",
  params: {
    _meta: {
      "io.modelcontextprotocol/protocolVersion": "2026-07-28",
      ...(name === null ? {} : { "io.modelcontextprotocol/clientInfo": { name, version: "1.0.0" } }),
      "io.modelcontextprotocol/clientCapabilities": {},
    },
  },
});

let n = 0;
const grouper = () => new FallbackGrouper({ newTraceId: () => `t${++n}` });

/** The first message of an HTTP MCP session through the MCP tap, as the recorder hands it to the grouper. */
function httpOpen(g: FallbackGrouper, port: number, body: { method: string }, now: number) {
  return g.assignMcp(body.method, undefined, now, mcpClientOf(`127.0.0.1:${port}`, [["user-agent", "node"]], body));
}

describe("the MCP client a session names", () => {
  it("reads clientInfo from an initialize and from a 2026-07-28 request's _meta", () => {
    expect(mcpClientName(initialize("claude-code"))).toBe("claude-code");
    expect(mcpClientName(discover("codex-mcp-client"))).toBe("codex-mcp-client");
    expect(mcpClientName(discover(null))).toBeNull();
    expect(mcpClientName({ method: "initialize", params: { clientInfo: { name: "  " } } })).toBeNull();
    expect(mcpClientName("not json-rpc")).toBeNull();
    expect(mcpClientOf("127.0.0.1:1", [], initialize("inspector"))?.clientName).toBe("inspector");
  });

  it("compares two clients: the same name, another, or unknown", () => {
    expect(compareClients("a", "a")).toBe("same");
    expect(compareClients("a", "b")).toBe("other");
    expect(compareClients(null, "b")).toBe("unknown");
    expect(compareClients("a", null)).toBe("unknown");
    // Qwen Code names its client per server: one agent.
    expect(compareClients("qwen-cli-mcp-client-notes", "qwen-cli-mcp-client-everything")).toBe("same");
    expect(compareClients("learners-host", "sse-host")).toBe("other");
    expect(compareClients("codex-mcp-client", "claude-code")).toBe("other");
  });
});

describe("MCP sessions of two clients started together", () => {
  it("an HTTP session and a stdio session of different clients within 1.5 s stay two traces", () => {
    const g = grouper();
    const http = httpOpen(g, 48001, initialize("sse-host"), 0);
    const stdio = g.assignStdioSession(300, "learners-host");
    expect(stdio.traceId).not.toBe(http.traceId);
    expect(stdio.groupedBy).toBe("session");
    // Either way round: a stdio session first, then another client's HTTP session.
    const stdio2 = g.assignStdioSession(10_000, "learners-host");
    const http2 = httpOpen(g, 48002, discover("sse-host"), 10_200);
    expect(http2.traceId).not.toBe(stdio2.traceId);
    expect(http2.groupedBy).toBe("session");
  });

  it("sessions of one client join as one run, said to be joined by the client", () => {
    const g = grouper();
    const http = httpOpen(g, 48011, initialize("claude-code"), 0);
    expect(g.assignStdioSession(400, "claude-code")).toEqual({ traceId: http.traceId, groupedBy: "mcp-client" });
    // A 2026-07-28 client naming itself on its request, after a stdio session of the same name.
    const stdio = g.assignStdioSession(60_000, "codex-mcp-client");
    expect(httpOpen(g, 48012, discover("codex-mcp-client"), 60_300)).toEqual({
      traceId: stdio.traceId,
      groupedBy: "mcp-client",
    });
    expect(upgradeGrouping("session", "mcp-client")).toBe("mcp-client");
  });

  it("the same client's stdio session joins within an agent's start (a wrapper slow to start), time alone does not", () => {
    const g = grouper();
    const http = httpOpen(g, 48015, initialize("qwen-cli-mcp-client-notes"), 100_000);
    expect(g.assignStdioSession(104_000, "qwen-cli-mcp-client-everything")).toEqual({
      traceId: http.traceId,
      groupedBy: "mcp-client",
    });
    const other = httpOpen(g, 48016, initialize("claude-code"), 200_000);
    expect(g.assignStdioSession(204_000, null).traceId).not.toBe(other.traceId);
    expect(g.assignStdioSession(212_000, "claude-code").traceId).not.toBe(other.traceId);
  });

  it("a client that names nobody joins by time alone (agent-start), and the run then knows its client", () => {
    const g = grouper();
    const stdio = g.assignStdioSession(0, null);
    expect(httpOpen(g, 48021, initialize("qwen-code"), 300)).toEqual({
      traceId: stdio.traceId,
      groupedBy: "agent-start",
    });
    // The HTTP session named the run's client: a third session, another client's, stays apart.
    expect(g.assignStdioSession(500, "inspector").traceId).not.toBe(stdio.traceId);
    expect(g.assignStdioSession(600, null).traceId).toBe(stdio.traceId);
  });

  it("a stdio session whose name comes in a later batch keeps another client out", () => {
    const g = grouper();
    const stdio = g.assignStdioSession(0, null);
    g.noteMcpClient(stdio.traceId, "learners-host");
    expect(httpOpen(g, 48031, initialize("sse-host"), 400).traceId).not.toBe(stdio.traceId);
  });

  it("an agent's run opened by its probe takes its own client's sessions, not another's", () => {
    const g = grouper();
    const a = agentRequestOf("127.0.0.1:48041", [["user-agent", "claude-cli/2.1.328"]], undefined);
    const run = g.assignProbe(a.client, a.session, 0).traceId;
    expect(httpOpen(g, 48042, initialize("claude-code"), 2_000)).toEqual({ traceId: run, groupedBy: "agent-start" });
    expect(g.assignStdioSession(2_300, "learners-host").traceId).not.toBe(run);
    expect(g.assignStdioSession(2_400, "claude-code")).toEqual({ traceId: run, groupedBy: "mcp-client" });
  });
});
