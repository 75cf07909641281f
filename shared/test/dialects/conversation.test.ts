/** Conversation grouping without traceparent, across dialects: a follow-up turn joins its conversation. */
import { describe, expect, it } from "vitest";
import { FallbackGrouper, conversationOf } from "@hopscope/shared/trace/group";

const ask = "Add buy milk to my notes";

function grouper() {
  let n = 0;
  return new FallbackGrouper({ newTraceId: () => `t${++n}` });
}

describe("conversationOf + FallbackGrouper", () => {
  it("Anthropic: the tool_result turn joins the first turn's trace; an unrelated question does not", () => {
    const g = grouper();
    const first = { model: "m", max_tokens: 10, messages: [{ role: "user", content: ask }] };
    const second = {
      ...first,
      messages: [
        ...first.messages,
        {
          role: "assistant",
          content: [{ type: "tool_use", id: "c1", name: "append", input: { content: "buy milk" } }],
        },
        { role: "user", content: [{ type: "tool_result", tool_use_id: "c1", content: "Success" }] },
      ],
    };
    const other = { ...first, messages: [{ role: "user", content: [{ type: "text", text: "What is on my list?" }] }] };
    const a = g.assignModelChat(conversationOf("/v1/messages", first)!, 1);
    const b = g.assignModelChat(conversationOf("/v1/messages", second)!, 2);
    const c = g.assignModelChat(conversationOf("/v1/messages", other)!, 3);
    expect(a).toEqual({ traceId: "t1", groupedBy: "single" });
    expect(b).toEqual({ traceId: "t1", groupedBy: "conversation" });
    expect(c.traceId).toBe("t2");
  });

  it("OpenAI Responses: function_call + function_call_output items extend the string input", () => {
    const g = grouper();
    const a = g.assignModelChat(conversationOf("/v1/responses", { model: "m", input: ask })!, 1);
    const b = g.assignModelChat(
      conversationOf("/v1/responses", {
        model: "m",
        input: [
          { role: "user", content: ask },
          { type: "function_call", call_id: "c", name: "append", arguments: "{}" },
          { type: "function_call_output", call_id: "c", output: "ok" },
        ],
      })!,
      2,
    );
    expect(b.traceId).toBe(a.traceId);
    expect(b.groupedBy).toBe("conversation");
  });

  it("OpenAI chat: content as parts or as a string is the same conversation", () => {
    const g = grouper();
    const a = g.assignModelChat(
      conversationOf("/v1/chat/completions", {
        model: "m",
        messages: [{ role: "user", content: [{ type: "text", text: ask }] }],
      })!,
      1,
    );
    const b = g.assignModelChat(
      conversationOf("/v1/chat/completions", {
        model: "m",
        messages: [
          { role: "user", content: ask },
          { role: "assistant", content: "Done." },
        ],
      })!,
      2,
    );
    expect(b.traceId).toBe(a.traceId);
  });

  it("not a chat endpoint, or a refused body", () => {
    expect(conversationOf("/api/generate", { prompt: "x" })).toBeNull();
    expect(conversationOf("/v1/messages", { model: "m", messages: [{ role: "user", content: "x" }] })).toEqual([
      { role: "user", content: "x" },
    ]);
  });
});

describe("toolMessagesOf in every dialect", async () => {
  const { toolMessagesOf } = await import("@hopscope/shared/trace/link");
  it("finds Anthropic tool_result blocks and Responses function_call_output items, named by their call", () => {
    expect(
      toolMessagesOf({
        messages: [
          { role: "user", content: "x" },
          { role: "assistant", content: [{ type: "tool_use", id: "c1", name: "append", input: {} }] },
          {
            role: "user",
            content: [{ type: "tool_result", tool_use_id: "c1", content: [{ type: "text", text: "Success" }] }],
          },
        ],
      }),
    ).toEqual([{ messageIndex: 2, content: "Success", toolName: "append" }]);
    expect(
      toolMessagesOf({
        input: [
          { type: "function_call", call_id: "c", name: "read", arguments: "{}" },
          { type: "function_call_output", call_id: "c", output: "notes" },
        ],
      }),
    ).toEqual([{ messageIndex: 1, content: "notes", toolName: "read" }]);
    expect(toolMessagesOf({ messages: [{ role: "tool", content: "ok", tool_name: "append" }] })).toEqual([
      { messageIndex: 0, content: "ok", toolName: "append" },
    ]);
  });
});
