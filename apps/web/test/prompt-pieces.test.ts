import { describe, expect, it } from "vitest";
import { chunks, pieces } from "../src/models/prompt-pieces";

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

  it("cuts a long prompt into chunks of whole lines that hold every piece's text once, in order", () => {
    const long = Array.from({ length: 300 }, (_, i) => `${text}line ${i} ${"x".repeat(i % 250)}\n`).join("");
    const longSegs = [{ start: 5, end: long.length - 7, kind: "system", path: "/messages/0/content" }];
    const ps = pieces(long, longSegs, 100);
    const cs = chunks(long, ps, 2000, 80);
    expect(cs.length).toBeGreaterThan(5);
    expect(cs.map((c) => c.pieces.map((p) => long.slice(p.start, p.end)).join("")).join("")).toBe(long);
    for (const [i, c] of cs.entries()) {
      expect(c.start).toBe(i === 0 ? 0 : cs[i - 1]!.end);
      // Each chunk but the last ends a line and holds at least the size asked.
      if (i < cs.length - 1) expect([long[c.end - 1], c.end - c.start >= 2000]).toEqual(["\n", true]);
      expect(c.pieces.every((p) => p.start >= c.start && p.end <= c.end && p.end > p.start)).toBe(true);
    }
    // The one segment crossing every chunk keeps its pointer in each.
    expect(cs.every((c) => c.pieces.some((p) => p.seg?.path === "/messages/0/content"))).toBe(true);
    // The rows estimate counts a wrapped line once per 80 columns.
    expect(chunks("a\n" + "b".repeat(170), pieces("a\n" + "b".repeat(170), [], undefined), 4000, 80)[0]!.rows).toBe(4);
  });

  it("keeps a short prompt in one chunk", () => {
    const cs = chunks(text, pieces(text, segs, undefined));
    expect(cs).toHaveLength(1);
    expect(cs[0]).toMatchObject({ start: 0, end: text.length });
  });
});
