/** The MCP session rule on its own: session ids, openers, the quiet window, id continuation, stdio. */
import { describe, expect, it } from "vitest";
import { McpSessionGrouper, mcpClientOf, mcpSessionTitle, type McpClientIdentity } from "../../src/trace/group-mcp";

function grouper(quietMs = 1000) {
  let n = 0;
  return new McpSessionGrouper({ newTraceId: () => `t${++n}`, quietMs, ttlMs: 10_000 });
}
const on = (connection: string, extra: Partial<McpClientIdentity> = {}): McpClientIdentity => ({
  connection,
  peer: "127.0.0.1 node",
  ...extra,
});

describe("mcpClientOf", () => {
  it("reads the peer from the connection's address and the User-Agent, and the legacy session id", () => {
    expect(
      mcpClientOf(
        "127.0.0.1:5000",
        [
          ["User-Agent", "node"],
          ["Mcp-Session-Id", "s1"],
        ],
        { id: 3 },
      ),
    ).toEqual({ connection: "127.0.0.1:5000", peer: "127.0.0.1 node", sessionId: "s1", jsonrpcId: 3 });
    expect(mcpClientOf("::1:5000", [], {})?.peer).toBe("::1 ");
    expect(mcpClientOf(null, [], {})).toBeUndefined();
  });
});

describe("McpSessionGrouper", () => {
  it("keeps a legacy Mcp-Session-Id together past the quiet window, on any connection", () => {
    const g = grouper();
    expect(g.assign(on("a"), "initialize", 0)).toEqual({ traceId: "t1", fresh: true });
    expect(g.assign(on("a", { sessionId: "s1" }), "notifications/initialized", 10).traceId).toBe("t1");
    expect(g.assign(on("z", { sessionId: "s1" }), "tools/call", 9000)).toEqual({ traceId: "t1", fresh: false });
  });

  it("starts a new session at an opener, but a discover probe and its initialize fallback are one", () => {
    const g = grouper();
    g.assign(on("a"), "server/discover", 0);
    expect(g.assign(on("a"), "initialize", 5).traceId).toBe("t1");
    g.assign(on("a"), "tools/list", 10);
    expect(g.assign(on("a"), "initialize", 20)).toEqual({ traceId: "t2", fresh: true });
  });

  it("splits a stateless client after the quiet window", () => {
    const g = grouper(1000);
    g.assign(on("a"), "tools/list", 0);
    expect(g.assign(on("b"), "tools/call", 900).traceId).toBe("t1");
    expect(g.assign(on("b"), "tools/call", 2000).traceId).toBe("t2");
  });

  it("tells two interleaved clients of one peer apart by their JSON-RPC id count", () => {
    const g = grouper();
    g.assign(on("a", { jsonrpcId: 0 }), "initialize", 0);
    g.assign(on("a", { jsonrpcId: 1 }), "tools/list", 1);
    g.assign(on("b", { jsonrpcId: 0 }), "initialize", 2);
    // Client one's next request arrives on a new connection after client two opened.
    expect(g.assign(on("c", { jsonrpcId: 2 }), "tools/call", 3).traceId).toBe("t1");
    expect(g.assign(on("d", { jsonrpcId: 1 }), "tools/list", 4).traceId).toBe("t2");
  });

  it("keeps a stdio process one session however quiet, and apart from HTTP clients", () => {
    const g = grouper(1000);
    const stdio = mcpClientOf("stdio:x", [], { id: 0 })!;
    expect(stdio).toMatchObject({ stdio: true, jsonrpcId: 0 });
    g.assign(stdio, "initialize", 0);
    g.assign(on("a"), "tools/list", 1);
    expect(g.assign(stdio, "tools/call", 9000).traceId).toBe("t1");
  });
});

describe("McpSessionGrouper bounds", () => {
  it("continues a long session in a new trace every maxPerSession messages", () => {
    let n = 0;
    const g = new McpSessionGrouper({ newTraceId: () => `t${++n}`, maxPerSession: 2 });
    const got = [0, 1, 2, 3, 4].map((i) => g.assign(on("a"), "tools/call", i));
    expect(got.map((r) => r.traceId)).toEqual(["t1", "t1", "t2", "t2", "t3"]);
    expect(got.map((r) => r.fresh)).toEqual([true, false, true, false, true]);
  });
});

describe("mcpSessionTitle", () => {
  it("ranks tools/call over other requests over openers and notifications", () => {
    expect(mcpSessionTitle("tools/call", "append", "POST /mcp")).toEqual({
      title: "MCP session: tools/call append",
      titleRank: 0,
    });
    expect(mcpSessionTitle("tools/list", undefined, "POST /mcp").titleRank).toBe(-1);
    expect(mcpSessionTitle("initialize", undefined, "POST /mcp").titleRank).toBe(-2);
    // A line that is no JSON-RPC message (a GET stream, a stdio server's stderr) names nothing better.
    expect(mcpSessionTitle(undefined, undefined, "GET /mcp")).toEqual({
      title: "MCP session: GET /mcp",
      titleRank: -3,
    });
  });
});
