/**
 * The stand-in's policy as pure functions: what it reads from the user's words, and its next step
 * for a given conversation (no server needed).
 */
import { describe, expect, it } from "vitest";
import { decide } from "../src/policy/decide";
import { parseIntent } from "../src/policy/intent";
import { NOTES_TOOLS, assistantCall, toolResult, user } from "./helpers";

describe("parseIntent", () => {
  it.each([
    ["Add buy milk to my notes", { kind: "append", content: "buy milk" }],
    ["Please remember to call mom.", { kind: "append", content: "call mom" }],
    ['note "pay rent"', { kind: "append", content: "pay rent" }],
    ["What's in my notes?", { kind: "read" }],
    ["Can you show my notes", { kind: "read" }],
    ["Change milk to oat milk", { kind: "update", search: "milk", replace: "oat milk" }],
    ["Replace milk with oat milk in my notes", { kind: "update", search: "milk", replace: "oat milk" }],
    ["Overwrite my notes with just eggs", { kind: "write", content: "just eggs" }],
    ["Clear my notes", { kind: "clear" }],
    ["Delete all my notes", { kind: "clear" }],
    ["Remember to read the book", { kind: "append", content: "read the book" }],
    ["Good morning", { kind: "none" }],
  ])("%s", (text, intent) => {
    expect(parseIntent(text)).toEqual(intent);
  });
});

describe("decide", () => {
  const tools = NOTES_TOOLS;
  it("reads back the notes after a read, and says when they are empty", () => {
    const ask = user("What's in my notes?");
    expect(
      decide({
        messages: [ask, assistantCall("read", {}), toolResult("read", "buy milk\ncall mom\n")],
        tools,
        lesson: null,
      }).content,
    ).toBe("Here's what's in your notes:\n\nbuy milk\ncall mom");
    expect(
      decide({ messages: [ask, assistantCall("read", {}), toolResult("read", "")], tools, lesson: null }).content,
    ).toBe("Your notes are empty.");
  });

  it("retries a failed call once with the right arguments, then gives up with the tool's message", () => {
    const ask = user("Change milk to oat milk");
    const failed = [
      ask,
      assistantCall("update", { search: "milk" }),
      toolResult("update", "Param (replace) is required: update takes (search) and (replace)."),
    ];
    expect(decide({ messages: failed, tools, lesson: null }).toolCalls).toEqual([
      { name: "update", arguments: { search: "milk", replace: "oat milk" } },
    ]);
    const again = [
      ...failed,
      assistantCall("update", { search: "milk", replace: "oat milk" }),
      toolResult("update", "Error: text not found: milk"),
    ];
    const final = decide({ messages: again, tools, lesson: null });
    expect(final.toolCalls).toEqual([]);
    expect(final.content).toContain("text not found: milk");
  });

  it("uses the host's own parameter names", () => {
    const custom = [
      {
        type: "function",
        function: {
          name: "append",
          parameters: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
        },
      },
    ];
    expect(decide({ messages: [user("add eggs")], tools: custom, lesson: null }).toolCalls).toEqual([
      { name: "append", arguments: { text: "eggs" } },
    ]);
  });

  it("without tools it answers in words, and never names a real model", () => {
    const d = decide({ messages: [user("Who are you?")], tools: [], lesson: null });
    expect(d.toolCalls).toEqual([]);
    expect(d.content).not.toMatch(/qwen|alibaba|gpt|llama/i);
  });

  it("the loop lesson calls read after every successful result", () => {
    const msgs = [
      user("Add buy milk"),
      assistantCall("append", { content: "buy milk" }),
      toolResult("append", "Success"),
    ];
    expect(decide({ messages: msgs, tools, lesson: "loop" }).toolCalls).toEqual([{ name: "read", arguments: {} }]);
  });
});
