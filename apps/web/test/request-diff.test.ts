import { describe, expect, it } from "vitest";
import { diffChatRequests } from "../src/models/request-diff";

const tools = [{ type: "function", function: { name: "append" } }];
const user = { role: "user", content: "Add buy milk to my notes" };
const call = {
  role: "assistant",
  content: "",
  tool_calls: [{ function: { name: "append", arguments: { content: "buy milk" } } }],
};
const result = { role: "tool", content: "Success", tool_name: "append" };

describe("diffChatRequests", () => {
  it("marks the resent history and the new messages of the second request", () => {
    const d = diffChatRequests(
      { model: "qwen2.5:7b", messages: [user], tools },
      { model: "qwen2.5:7b", messages: [user, call, result], tools },
    );
    expect(d.messages.map((m) => m.status)).toEqual(["resent", "new", "new"]);
    expect(d.newCount).toBe(2);
    expect(d.resentCount).toBe(1);
    expect(d.toolsChanged).toBe(false);
    expect(d.changedFields).toEqual([]);
  });

  it("ignores key order but not content when comparing messages", () => {
    const reordered = { content: "Add buy milk to my notes", role: "user" };
    expect(diffChatRequests({ messages: [user] }, { messages: [reordered] }).messages[0]!.status).toBe("resent");
    const edited = diffChatRequests({ messages: [user] }, { messages: [{ ...user, content: "Add eggs" }] });
    expect(edited.messages[0]).toMatchObject({ status: "changed", before: user });
  });

  it("reports dropped messages, changed tools and changed fields", () => {
    const d = diffChatRequests(
      { messages: [user, call], tools, stream: false },
      { messages: [user], tools: [], stream: true },
    );
    expect(d.messages.map((m) => [m.status, m.index])).toEqual([
      ["resent", 0],
      ["removed", 1],
    ]);
    expect(d.toolsChanged).toBe(true);
    expect(d.changedFields).toEqual(["stream"]);
  });
});
