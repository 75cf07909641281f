import { describe, expect, it } from "vitest";
import { MAX_MARKS, splitMatches } from "../src/models/highlight";

describe("splitMatches", () => {
  it("marks every case-insensitive match and keeps the text whole", () => {
    const parts = splitMatches('{"content":"Buy milk"} buy milk', "buy milk");
    expect(parts).toEqual([
      { text: '{"content":"', match: false },
      { text: "Buy milk", match: true },
      { text: '"} ', match: false },
      { text: "buy milk", match: true },
    ]);
  });

  it("returns the text unmarked for an empty query, and stops marking after MAX_MARKS", () => {
    expect(splitMatches("abc", "  ")).toEqual([{ text: "abc", match: false }]);
    const many = "x ".repeat(MAX_MARKS + 10);
    const parts = splitMatches(many, "x");
    expect(parts.filter((p) => p.match)).toHaveLength(MAX_MARKS);
    expect(parts.map((p) => p.text).join("")).toBe(many);
  });
});
