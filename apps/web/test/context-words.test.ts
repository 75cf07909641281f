import { describe, expect, it } from "vitest";
import type { TruncationView } from "@hopscope/shared/trace/views";
import { raiseWords, roomFor, truncationWords } from "../src/models/context-words";
import { tokenPieces } from "../src/models/token-pieces";

const cut: TruncationView = {
  contextLength: 4096,
  contextSource: "default",
  dropped: [1, 2],
  droppedPaths: ["/messages/0", "/messages/1"],
  renderedTokens: 18413,
  keptTokens: 18362,
  questionDropped: true,
  stillTooLong: true,
  numCtxInRequest: false,
};
const roles = new Map([
  [1, "user"],
  [2, "assistant"],
]);

describe("the truncation in words", () => {
  it("names what went by the client's JSON, its cost, the question, the window, and that it still does not fit", () => {
    expect(truncationWords(cut, roles)).toBe(
      "Ollama cut this conversation to fit a 4,096-token context window (the server's default): it dropped " +
        "/messages/0 (user) and /messages/1 (assistant) — 51 tokens, your question among them: the model never read " +
        "it. Even so it is 18,362 tokens, too long: the runner refuses it or cuts tokens out of its middle.",
    );
  });

  it("says the request's num_ctx and leaves the question out when it stayed", () => {
    const words = truncationWords(
      { ...cut, contextSource: "request", contextLength: 8192, questionDropped: false, stillTooLong: false },
      roles,
    );
    expect(words).toContain("the 8,192-token window the request set (num_ctx)");
    expect(words).not.toContain("question");
    expect(words).not.toContain("Even so");
  });

  it("tells each client how to raise the window: num_ctx where its dialect carries one, the server's setting else", () => {
    expect(raiseWords(cut, "Anthropic Messages")).toBe(
      "To fit it, start the model server with OLLAMA_CONTEXT_LENGTH=32768: Anthropic Messages carries no num_ctx.",
    );
    expect(raiseWords({ ...cut, numCtxInRequest: true }, undefined)).toContain('"options": {"num_ctx": 32768}');
    expect(roomFor(1000)).toBe(8192);
    expect(roomFor(30000)).toBe(65536);
  });
});

describe("token pieces from start offsets", () => {
  it("slices the text between starts, and uses the sent display for a token inside a character", () => {
    const text = "a 🎉b";
    const tokens = {
      count: 4,
      ids: [64, 11162, 231, 65],
      starts: [0, 1, 2, 4],
      odd: [[1, " <0xF0>"] as [number, string]],
    };
    expect(tokenPieces(text, tokens)).toEqual(["a", " <0xF0>", "🎉", "b"]);
    expect(tokenPieces(text, tokens, 2, 3)).toEqual(["🎉"]);
  });
});
