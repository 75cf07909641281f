/** The one ChatML reader (prompt/chatml.ts): turns, roles and where each ends. */
import { describe, expect, it } from "vitest";
import { chatmlTurns } from "../../src/prompt/chatml";

describe("chatmlTurns", () => {
  it("reads a rendered prompt's turns up to the open assistant turn", () => {
    const prompt =
      "<|im_start|>system\nYou help.<|im_end|>\n<|im_start|>user\nAdd buy milk\nto my notes<|im_end|>\n<|im_start|>assistant\n";
    expect(chatmlTurns(prompt)).toEqual([
      { role: "system", content: "You help.", closed: true },
      { role: "user", content: "Add buy milk\nto my notes", closed: true },
      { role: "assistant", content: "", closed: false },
    ]);
  });

  it("ends a turn cut off at the end of the prompt, or at the next turn; ignores text outside turns", () => {
    expect(chatmlTurns("preamble<|im_start|>user\nfirst<|im_start|>user\ncut off")).toEqual([
      { role: "user", content: "first", closed: false },
      { role: "user", content: "cut off", closed: false },
    ]);
    expect(chatmlTurns("no turns at all")).toEqual([]);
    expect(chatmlTurns("<|im_start|>user")).toEqual([{ role: "user", content: "", closed: false }]);
  });
});
