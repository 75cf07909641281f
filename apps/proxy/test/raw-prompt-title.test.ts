/** The question of a raw /api/generate prompt (recording/trace-title.ts, lastUserTurn): the client's own ChatML, read as Qwen reads it. */
import { describe, expect, it } from "vitest";
import { lastUserTurn, questionOf } from "../src/recording/trace-title";

const turn = (role: string, text: string, close = true) => `<|im_start|>${role}\n${text}${close ? "<|im_end|>\n" : ""}`;

describe("lastUserTurn", () => {
  it("is the last user turn that asks something, whole (newlines kept), skipping tool results", () => {
    const prompt =
      turn("system", "You keep notes.") +
      turn("user", "First") +
      turn("assistant", "OK") +
      turn("user", "Add buy milk\nto my notes") +
      turn("user", "<tool_response>\nok\n</tool_response>") +
      "<|im_start|>assistant\n";
    expect(lastUserTurn(prompt)).toBe("Add buy milk\nto my notes");
  });

  it("keeps what a user turn says besides a tool result, and reads an unclosed last turn", () => {
    expect(lastUserTurn(turn("user", "<tool_response>\nok\n</tool_response>\nNow list them"))).toBe("\nNow list them");
    expect(lastUserTurn(turn("user", "Cut off mid-question", false))).toBe("Cut off mid-question");
  });

  it("is null for a prompt with no user turn, or none that asks anything", () => {
    expect(lastUserTurn("Q: plain text\nA:")).toBeNull();
    expect(lastUserTurn(turn("system", "Only a system turn"))).toBeNull();
    expect(lastUserTurn(turn("user", "   ") + turn("user", "<tool_response>x</tool_response>"))).toBeNull();
  });

  it("is used only for raw requests: a templated prompt is the question itself, ChatML-looking or not", () => {
    const chatml = turn("user", "Inside");
    expect(questionOf("/api/generate", { model: "m", raw: true, prompt: chatml })).toBe("Inside");
    expect(questionOf("/api/generate", { model: "m", prompt: chatml })).toBe(chatml);
    expect(questionOf("/api/generate", { model: "m", raw: true, prompt: "no turns" })).toBe("no turns");
  });
});
