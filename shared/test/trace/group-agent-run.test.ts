import { describe, expect, it } from "vitest";
import { FallbackGrouper, conversationOf, upgradeGrouping, type GroupResult } from "@hopscope/shared/trace/group";
import type { McpClientIdentity } from "@hopscope/shared/trace/group-mcp";
import {
  agentRequestOf,
  agentSessionOf,
  isToolNamed,
  learnerText,
  listedToolNames,
  offeredToolNames,
} from "@hopscope/shared/trace/agent-run";

// Requests shaped as the four agents send them through the model tap (headers and bodies trimmed to what
// grouping reads): Claude Code (Anthropic Messages), Codex (Responses), opencode and Qwen Code (OpenAI chat).
const QUESTION = "Add buy milk to my notes";
const CLAUDE_SESSION = "5f0c7a52-3c1e-4a57-9c43-0e4a1d2b7c11";
const claudeHeaders = (session = CLAUDE_SESSION): [string, string][] => [
  ["User-Agent", "claude-cli/2.1.328 (external, cli)"],
  ["X-Claude-Code-Session-Id", session],
  ["anthropic-version", "2023-06-01"],
];
const claudeBody = (tools = ["Bash", "mcp__notes__append", "mcp__notes__read"]) => ({
  model: "qwen2.5:7b",
  system: [{ type: "text", text: "You are Claude Code, Anthropic's official CLI for Claude." }],
  metadata: { user_id: `user_ab12_account__session_${CLAUDE_SESSION}` },
  tools: tools.map((name) => ({ name, input_schema: { type: "object" } })),
  messages: [
    {
      role: "user",
      content: [
        {
          type: "text",
          text: "<system-reminder>\nAttribution for git commits: add Co-Authored-By lines.\n</system-reminder>",
        },
        { type: "text", text: QUESTION },
      ],
    },
  ],
});
const codexHeaders = (session: string): [string, string][] => [
  ["user-agent", "codex_cli_rs/0.169.0 (Debian 12; x86_64) xterm"],
  ["originator", "codex_exec"],
  ["session-id", session],
  ["thread-id", session],
];
const codexBody = {
  model: "qwen2.5:7b",
  instructions: "You are Codex.",
  tools: [{ type: "namespace", name: "mcp__notes", tools: [{ type: "function", name: "append" }] }],
  input: [
    {
      type: "message",
      role: "user",
      content: [{ type: "input_text", text: "<user_instructions>Be brief.</user_instructions>" }],
    },
    {
      type: "message",
      role: "user",
      content: [{ type: "input_text", text: "<environment_context>\n  <cwd>/tmp/x</cwd>\n</environment_context>" }],
    },
    { type: "message", role: "user", content: [{ type: "input_text", text: QUESTION }] },
  ],
  stream: true,
};
const opencodeHeaders: [string, string][] = [
  ["user-agent", "opencode/1.18.33 ai-sdk/provider-utils/3.0.0"],
  ["x-session-id", "ses_8c1f2e"],
];
const chatBody = (tools: string[], messages: unknown[]) => ({
  model: "qwen2.5:7b",
  messages,
  tools: tools.map((name) => ({ type: "function", function: { name, parameters: { type: "object" } } })),
  stream: true,
});
const qwenHeaders: [string, string][] = [["User-Agent", "QwenCode/0.24.4 (linux; x64)"]];

const conn = (port: number) => `127.0.0.1:${port}`;
const mcp = (port: number, ua: string, id?: number): McpClientIdentity => ({
  connection: conn(port),
  peer: `127.0.0.1 ${ua}`,
  ...(id === undefined ? {} : { jsonrpcId: id }),
});

let n = 0;
const grouper = () => new FallbackGrouper({ newTraceId: () => `t${++n}` });

/** A model request through the grouper as the recorder sends it. */
function chat(
  g: FallbackGrouper,
  path: string,
  headers: [string, string][],
  body: unknown,
  port: number,
  now: number,
): GroupResult {
  const messages = conversationOf(path, body) ?? [];
  return g.assignModelChat(messages, now, null, conn(port), agentRequestOf(conn(port), headers, body));
}

function probe(g: FallbackGrouper, headers: [string, string][], port: number, now: number): GroupResult {
  const a = agentRequestOf(conn(port), headers, undefined);
  return g.assignProbe(a.client, a.session, now);
}

/** An MCP session over HTTP that lists the notes tools. */
function mcpSession(g: FallbackGrouper, port: number, ua: string, now: number): string {
  const opened = g.assignMcp("initialize", undefined, now, mcp(port, ua, 0));
  g.assignMcp("notifications/initialized", undefined, now + 5, mcp(port, ua));
  const listed = g.assignMcp("tools/list", undefined, now + 10, mcp(port, ua, 1));
  expect(listed.traceId).toBe(opened.traceId);
  g.noteListedTools(listed.traceId, ["append", "read"], now + 12);
  return opened.traceId;
}

describe("what agents send", () => {
  it("reads each agent's session id from its headers or body", () => {
    expect(agentSessionOf(claudeHeaders(), {})).toBe(CLAUDE_SESSION);
    expect(agentSessionOf([], claudeBody())).toBe(CLAUDE_SESSION);
    expect(agentSessionOf(codexHeaders("019a-c0de"), {})).toBe("019a-c0de");
    expect(agentSessionOf([["session_id", "abc-1"]], {})).toBe("abc-1");
    expect(agentSessionOf(opencodeHeaders, {})).toBe("ses_8c1f2e");
    expect(agentSessionOf(qwenHeaders, { metadata: { sessionId: "qwen-s1", promptId: "p1" } })).toBe("qwen-s1");
    expect(agentSessionOf(qwenHeaders, { messages: [] })).toBeNull();
  });

  it("names the offered tools in every dialect and matches them to MCP names", () => {
    expect(offeredToolNames(codexBody)).toEqual(["mcp__notes__append"]);
    expect(offeredToolNames(claudeBody())).toContain("mcp__notes__append");
    expect(offeredToolNames(chatBody(["notes_append"], []))).toEqual(["notes_append"]);
    for (const name of ["append", "mcp__notes__append", "notes_append", "notes__append"])
      expect(isToolNamed(name, "append")).toBe(true);
    for (const name of ["reappend", "_append", "append_x"]) expect(isToolNamed(name, "append")).toBe(false);
    const sse = `event: message\ndata: ${JSON.stringify({ jsonrpc: "2.0", id: 1, result: { tools: [{ name: "append" }, { name: "read" }] } })}\n\n`;
    expect(listedToolNames(sse)).toEqual(["append", "read"]);
  });

  it("finds the learner's question inside the agent's boilerplate", () => {
    expect(learnerText("<system-reminder>\nAttribution for git commits…\n</system-reminder>\nAdd buy milk")).toBe(
      "Add buy milk",
    );
    expect(learnerText("<environment_context>\n<cwd>/x</cwd>\n</environment_context>")).toBe("");
    expect(learnerText("Generate a title for this conversation:\nAdd buy milk to my notes")).toBe(QUESTION);
  });
});

describe("one run, one trace", () => {
  it("Claude Code: MCP session, title side request, main request and a retry share one trace", () => {
    const g = grouper();
    const session = mcpSession(g, 41001, "claude-code/2.1.328", 0);
    const side = chat(g, "/v1/messages", claudeHeaders(), { ...claudeBody([]), max_tokens: 50 }, 41002, 200);
    // It offers no tools: it claims the run its agent's MCP session opened on the machine.
    expect(side).toEqual({ traceId: session, groupedBy: "agent-start" });
    const main = chat(g, "/v1/messages", claudeHeaders(), claudeBody(), 41003, 300);
    const retry = chat(g, "/v1/messages", claudeHeaders(), claudeBody(), 41004, 2_300);
    expect(main).toEqual({ traceId: session, groupedBy: "agent-session" });
    expect(retry).toEqual({ traceId: session, groupedBy: "agent-session" });
  });

  it("Codex: probes, an MCP session and the Responses request share one trace; the tools/call joins it", () => {
    const g = grouper();
    const tags = probe(g, codexHeaders("c-1"), 42001, 0);
    expect(tags.groupedBy).toBe("single");
    expect(probe(g, codexHeaders("c-1"), 42002, 10)).toEqual({ traceId: tags.traceId, groupedBy: "probe" });
    const opened = g.assignMcp("initialize", undefined, 50, mcp(42003, "rmcp"));
    expect(opened).toEqual({ traceId: tags.traceId, groupedBy: "agent-start" });
    g.noteListedTools(tags.traceId, ["append"], 60);
    const turn = chat(g, "/v1/responses", codexHeaders("c-1"), codexBody, 42004, 100);
    expect(turn).toEqual({ traceId: tags.traceId, groupedBy: "tools-offered" });
    g.noteToolCalls(turn.traceId, ["mcp__notes__append"], 900, conn(42004));
    expect(g.assignMcp("tools/call", "append", 950, mcp(42003, "rmcp", 2))).toEqual({
      traceId: tags.traceId,
      groupedBy: "conversation",
    });
  });

  it("opencode: the title request and the main request (different messages) share the session's trace", () => {
    const g = grouper();
    const session = mcpSession(g, 43001, "opencode/1.18.33", 0);
    const title = chat(
      g,
      "/v1/chat/completions",
      opencodeHeaders,
      chatBody(
        [],
        [
          { role: "system", content: "You are a title generator." },
          { role: "user", content: `Generate a title for this conversation:\n${QUESTION}` },
        ],
      ),
      43002,
      100,
    );
    const main = chat(
      g,
      "/v1/chat/completions",
      opencodeHeaders,
      chatBody(["notes_append"], [{ role: "user", content: QUESTION }]),
      43003,
      120,
    );
    expect(title.traceId).toBe(session);
    expect(main).toEqual({ traceId: session, groupedBy: "agent-session" });
  });

  it("Qwen Code, which names no session: the tools it offers claim its MCP session's run", () => {
    const g = grouper();
    const session = mcpSession(g, 44001, "node", 0);
    const body = chatBody(["mcp__notes__append"], [{ role: "user", content: QUESTION }]);
    expect(chat(g, "/v1/chat/completions", qwenHeaders, body, 44002, 200)).toEqual({
      traceId: session,
      groupedBy: "tools-offered",
    });
    // The next turn is the same conversation.
    const next = chatBody(
      ["mcp__notes__append"],
      [
        { role: "user", content: QUESTION },
        { role: "assistant", content: "Done." },
        { role: "user", content: "Thanks" },
      ],
    );
    expect(chat(g, "/v1/chat/completions", qwenHeaders, next, 44003, 5_000).traceId).toBe(session);
  });

  it("two agents at once stay two traces", () => {
    const g = grouper();
    const a = probe(g, codexHeaders("c-A"), 45001, 0);
    const b = probe(g, opencodeHeaders, 45002, 5);
    // Two stand-alone probes of different agents are not glued together.
    expect(b.traceId).not.toBe(a.traceId);
    const aTurn = chat(g, "/v1/responses", codexHeaders("c-A"), codexBody, 45003, 100);
    const bTurn = chat(
      g,
      "/v1/chat/completions",
      opencodeHeaders,
      chatBody([], [{ role: "user", content: QUESTION }]),
      45004,
      110,
    );
    expect(aTurn).toEqual({ traceId: a.traceId, groupedBy: "probe" });
    expect(bTurn).toEqual({ traceId: b.traceId, groupedBy: "probe" });
    // Two Claude Codes with the same question: their session ids keep them apart.
    const c1 = chat(g, "/v1/messages", claudeHeaders("s-1"), claudeBody(), 45005, 200);
    const c2 = chat(g, "/v1/messages", claudeHeaders("s-2"), claudeBody(), 45006, 210);
    expect(c2.traceId).not.toBe(c1.traceId);
    expect(chat(g, "/v1/messages", claudeHeaders("s-1"), claudeBody(), 45007, 900).traceId).toBe(c1.traceId);
    expect(chat(g, "/v1/messages", claudeHeaders("s-2"), claudeBody(), 45008, 910).traceId).toBe(c2.traceId);
  });

  it("MCP clients run one after another stay apart; an agent's HTTP and stdio sessions at its start join", () => {
    const g = grouper();
    const first = g.assignMcp("initialize", undefined, 0, mcp(47001, "node", 0)).traceId;
    g.assignMcp("tools/list", undefined, 50, mcp(47001, "node", 1));
    // Another HTTP session 200 ms later (an SDK client right after another): the MCP tap is one server.
    const second = g.assignMcp("initialize", undefined, 200, mcp(47002, "node", 0)).traceId;
    expect(second).not.toBe(first);
    g.assignMcp("tools/list", undefined, 250, mcp(47002, "node", 1));
    // A stdio server started with the second: the same agent's start.
    expect(g.assignStdioSession(600)).toEqual({ traceId: second, groupedBy: "agent-start" });
    // An Inspector run seconds later opens its own.
    expect(g.assignMcp("initialize", undefined, 5_000, mcp(47003, "node", 0)).traceId).not.toBe(second);
    expect(g.assignStdioSession(9_000).groupedBy).toBe("session");
  });

  it("a bare client's requests and an MCP session of old stay apart", () => {
    const g = grouper();
    const session = mcpSession(g, 46001, "node", 0);
    const body = chatBody(["append"], [{ role: "user", content: QUESTION }]);
    // Long after the session (outside the run window), a model request starts its own trace.
    const late = chat(g, "/api/chat", [["user-agent", "curl/8"]], body, 46002, 120_000);
    expect(late.traceId).not.toBe(session);
    expect(late.groupedBy).toBe("single");
  });

  it("a trace's grouping upgrades to the run rule that joined it", () => {
    expect(upgradeGrouping("session", "tools-offered")).toBe("tools-offered");
    expect(upgradeGrouping("single", "conversation")).toBe("conversation");
    expect(upgradeGrouping("probe", "agent-session")).toBe("probe");
    expect(upgradeGrouping("traceparent", "agent-session")).toBe("traceparent");
  });
});
