import { describe, expect, it } from "vitest";
import { canonical, linkExchanges, toolMessagesOf, type LinkInput } from "@hopscope/shared/trace/link";
import { FallbackGrouper, extendsMessages, messageKey } from "@hopscope/shared/trace/group";
import {
  formatTraceparent,
  parseTraceparent,
  randomHex,
  traceparentFromJsonRpc,
} from "@hopscope/shared/trace/traceparent";
import type { Classification } from "@hopscope/shared/trace/schemas";

const chat = (toolCalls: { name: string; arguments: Record<string, unknown> }[]): Classification => ({
  kind: "model.chat",
  messageCount: 2,
  toolCount: 5,
  stream: false,
  toolCalls,
});
const call = (toolName: string, args: Record<string, unknown>, resultText?: string): Classification => ({
  kind: "mcp",
  method: "tools/call",
  toolName,
  arguments: args,
  outcome: "ok",
  ...(resultText === undefined ? {} : { resultText }),
});

describe("linkExchanges", () => {
  it("links a tool call to the tools/call it caused and to the chat that carried the result back", () => {
    const items: LinkInput[] = [
      { id: 1, seq: 1, classification: { kind: "agent", message: "Add buy milk" } },
      { id: 2, seq: 2, classification: { kind: "mcp", method: "tools/list", outcome: "ok" } },
      { id: 3, seq: 3, classification: chat([{ name: "append", arguments: { content: "buy milk" } }]) },
      { id: 4, seq: 4, classification: call("append", { content: "buy milk" }, "Success") },
      {
        id: 5,
        seq: 5,
        classification: chat([]),
        toolMessages: [{ messageIndex: 3, toolName: "append", content: "Success" }],
      },
    ];
    expect(linkExchanges(items)).toEqual([
      { kind: "tool-call", from: 3, to: 4, toolName: "append", toolCallIndex: 0 },
      { kind: "tool-result", from: 4, to: 5, toolName: "append", messageIndex: 3 },
    ]);
  });

  it("pairs two calls of the same tool in order, by arguments regardless of key order", () => {
    const items: LinkInput[] = [
      {
        id: 1,
        seq: 1,
        classification: chat([
          { name: "update", arguments: { search: "a", replace: "b" } },
          { name: "update", arguments: { search: "c", replace: "d" } },
        ]),
      },
      { id: 2, seq: 2, classification: call("update", { replace: "d", search: "c" }, "ok 2") },
      { id: 3, seq: 3, classification: call("update", { replace: "b", search: "a" }, "ok 1") },
      {
        id: 4,
        seq: 4,
        classification: chat([]),
        toolMessages: [
          { messageIndex: 3, toolName: "update", content: "ok 1" },
          { messageIndex: 4, toolName: "update", content: "ok 2" },
        ],
      },
    ];
    expect(linkExchanges(items)).toEqual([
      { kind: "tool-call", from: 1, to: 3, toolName: "update", toolCallIndex: 0 },
      { kind: "tool-call", from: 1, to: 2, toolName: "update", toolCallIndex: 1 },
      { kind: "tool-result", from: 2, to: 4, toolName: "update", messageIndex: 4 },
      { kind: "tool-result", from: 3, to: 4, toolName: "update", messageIndex: 3 },
    ]);
  });

  it("does not link a tools/call that came before the model asked, or with other arguments", () => {
    const items: LinkInput[] = [
      { id: 1, seq: 1, classification: call("append", { content: "buy milk" }) },
      { id: 2, seq: 2, classification: chat([{ name: "append", arguments: { content: "buy milk" } }]) },
      { id: 3, seq: 3, classification: call("append", { content: "eggs" }) },
    ];
    expect(linkExchanges(items)).toEqual([]);
  });

  it("finds role:tool messages in a chat request", () => {
    expect(
      toolMessagesOf({
        messages: [
          { role: "user", content: "hi" },
          { role: "assistant", content: "", tool_calls: [] },
          { role: "tool", content: "Success", tool_name: "append" },
        ],
      }),
    ).toEqual([{ messageIndex: 2, toolName: "append", content: "Success" }]);
    expect(canonical({ b: 1, a: [2, { d: 1, c: 2 }] })).toBe('{"a":[2,{"c":2,"d":1}],"b":1}');
  });
});

describe("FallbackGrouper", () => {
  let n = 0;
  const grouper = () => new FallbackGrouper({ newTraceId: () => `t${++n}`, mcpWindowMs: 1000 });
  const sys = { role: "system", content: "You are helpful." };
  const user = { role: "user", content: "Add buy milk" };

  it("joins a chat whose messages extend an earlier chat's, and nothing else", () => {
    const g = grouper();
    const first = g.assignModelChat([sys, user], 0);
    expect(first.groupedBy).toBe("single");
    const next = g.assignModelChat(
      [sys, user, { role: "assistant", content: "" }, { role: "tool", content: "Success" }],
      10,
    );
    expect(next).toEqual({ traceId: first.traceId, groupedBy: "conversation" });
    const again = g.assignModelChat([sys, user], 20);
    expect(again.traceId).not.toBe(first.traceId);
    const other = g.assignModelChat([sys, { role: "user", content: "Read my notes" }], 30);
    expect(other.traceId).not.toBe(first.traceId);
  });

  it("puts a tools/call right after a model response that asked for it in that trace, once", () => {
    const g = grouper();
    const chatTrace = g.assignModelChat([user], 0);
    g.noteToolCalls(chatTrace.traceId, ["append"], 100);
    expect(g.assignMcp("tools/call", "read", 200).traceId).not.toBe(chatTrace.traceId);
    expect(g.assignMcp("tools/call", "append", 200)).toEqual({ traceId: chatTrace.traceId, groupedBy: "conversation" });
    expect(g.assignMcp("tools/call", "append", 300).traceId).not.toBe(chatTrace.traceId);
    g.noteToolCalls(chatTrace.traceId, ["append"], 400);
    expect(g.assignMcp("tools/call", "append", 2000).traceId).not.toBe(chatTrace.traceId);
  });

  it("uses a traceparent when the request has one, and still remembers the conversation", () => {
    const g = grouper();
    expect(g.assignModelChat([user], 0, "abc")).toEqual({ traceId: "abc", groupedBy: "traceparent" });
    expect(
      g.assignModelChat([user, { role: "assistant", content: "ok" }, { role: "user", content: "more" }], 5).traceId,
    ).toBe("abc");
  });

  it("compares messages by role and content", () => {
    expect(messageKey({ role: "User", content: "x", tool_calls: [1] })).toBe(
      messageKey({ role: "user", content: "x" }),
    );
    expect(extendsMessages(["a"], ["a", "b"])).toBe(true);
    expect(extendsMessages(["a", "b"], ["a", "b"])).toBe(false);
    expect(extendsMessages([], ["a"])).toBe(false);
  });
});

describe("traceparent", () => {
  it("parses valid headers and refuses invalid ones", () => {
    expect(parseTraceparent("00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01")).toEqual({
      version: "00",
      traceId: "0af7651916cd43dd8448eb211c80319c",
      parentId: "b7ad6b7169203331",
      flags: "01",
    });
    expect(parseTraceparent("00-00000000000000000000000000000000-b7ad6b7169203331-01")).toBeNull();
    expect(parseTraceparent("ff-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01")).toBeNull();
    expect(parseTraceparent("00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01-extra")).toBeNull();
    expect(parseTraceparent("garbage")).toBeNull();
    expect(parseTraceparent(undefined)).toBeNull();
  });

  it("formats, generates ids, and reads MCP _meta.traceparent", () => {
    let i = 0;
    const hex = randomHex(4, (a) => a.map(() => ++i));
    expect(hex).toBe("01020304");
    expect(formatTraceparent({ traceId: "a".repeat(32), parentId: "b".repeat(16) })).toBe(
      `00-${"a".repeat(32)}-${"b".repeat(16)}-01`,
    );
    expect(traceparentFromJsonRpc({ params: { _meta: { traceparent: "x" } } })).toBe("x");
    expect(traceparentFromJsonRpc({ params: {} })).toBeNull();
  });
});
