import { describe, expect, it } from "vitest";
import { FallbackGrouper } from "@hopscope/shared/trace/group";
import type { McpClientIdentity } from "@hopscope/shared/trace/group-mcp";

let n = 0;
const grouper = () => new FallbackGrouper({ newTraceId: () => `t${++n}`, mcpWindowMs: 30_000 });
const client = (port: number, ua: string, id?: number): McpClientIdentity => ({
  connection: `127.0.0.1:${port}`,
  peer: `127.0.0.1 ${ua}`,
  ...(id === undefined ? {} : { jsonrpcId: id }),
});

// Found from outside: an Anthropic-SDK agent asked the model to append "buy milk"; 16 s later the MCP
// Inspector's `--method tools/call --tool-name append` was grouped into the agent's trace, and the
// Inspector's own session was named "MCP session: tools/list".
describe("a tools/call the model asked for, and the MCP session it comes in", () => {
  it("a session begun after the model asked (here 3.9 s after, as measured with the Inspector), keeps its call", () => {
    const g = grouper();
    const chat = g.assignModelChat([{ role: "user", content: "Add buy milk to my notes" }], 0);
    g.noteToolCalls(chat.traceId, ["append"], 1_000);
    const inspector = client(40001, "node", 0);
    const session = g.assignMcp("initialize", undefined, 4_860, inspector);
    g.assignMcp("notifications/initialized", undefined, 4_880, client(40001, "node"));
    g.assignMcp("tools/list", undefined, 4_890, client(40001, "node", 1));
    const call = g.assignMcp("tools/call", "append", 4_900, client(40001, "node", 2));
    expect(call).toMatchObject({ traceId: session.traceId, groupedBy: "session" });
  });

  it("the agent's own session, begun before the model asked, still gives the call to the model's trace", () => {
    const g = grouper();
    const agent = client(40002, "node", 0);
    g.assignMcp("initialize", undefined, 0, agent);
    g.assignMcp("tools/list", undefined, 50, client(40002, "node", 1));
    const chat = g.assignModelChat([{ role: "user", content: "Add buy milk to my notes" }], 100);
    g.noteToolCalls(chat.traceId, ["append"], 900);
    // A slow agent: the call comes late, but in the session that listed the tools.
    expect(g.assignMcp("tools/call", "append", 12_000, client(40002, "node", 2))).toEqual({
      traceId: chat.traceId,
      groupedBy: "conversation",
    });
  });

  it("an agent that connects for each call, right after the model asked, still joins the model's trace", () => {
    const g = grouper();
    const chat = g.assignModelChat([{ role: "user", content: "Add buy milk to my notes" }], 0);
    g.noteToolCalls(chat.traceId, ["append"], 1_000);
    g.assignMcp("initialize", undefined, 1_100, client(40003, "node", 0));
    expect(g.assignMcp("tools/call", "append", 1_200, client(40003, "node", 1))).toEqual({
      traceId: chat.traceId,
      groupedBy: "conversation",
    });
  });
});
