import { describe, expect, it } from "vitest";
import { pieces } from "../src/models/prompt-pieces";

const text = "<|im_start|>user\nhi<|im_end|>\n<|im_start|>assistant\n";
const segs = [
  { start: 0, end: 12, kind: "special" },
  { start: 17, end: 19, kind: "message", role: "user", path: "/messages/0/content" },
  { start: 19, end: 29, kind: "special" },
];

describe("prompt pieces", () => {
  it("covers the whole text with segments and the gaps between them, in order", () => {
    const ps = pieces(text, segs, undefined);
    expect(ps.map((p) => text.slice(p.start, p.end)).join("")).toBe(text);
    expect(ps.map((p) => p.seg?.kind ?? "gap")).toEqual(["special", "gap", "message", "special", "gap"]);
  });

  it("cuts the piece that straddles the start of what is new", () => {
    const ps = pieces(text, segs, 18);
    const cut = ps.filter((p) => p.seg?.path === "/messages/0/content");
    expect(cut.map((p) => [p.start, p.end])).toEqual([
      [17, 18],
      [18, 19],
    ]);
    expect(ps.map((p) => text.slice(p.start, p.end)).join("")).toBe(text);
  });

  it("ignores overlapping and empty segments instead of repeating text", () => {
    const ps = pieces(
      "abcdef",
      [
        { start: 0, end: 4, kind: "system" },
        { start: 2, end: 3, kind: "tool" },
        { start: 5, end: 5, kind: "tool" },
      ],
      undefined,
    );
    expect(ps.map((p) => [p.start, p.end])).toEqual([
      [0, 4],
      [4, 6],
    ]);
  });
});
