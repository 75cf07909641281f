import { describe, expect, it } from "vitest";
import { lineDiff, noteLines, summarize } from "../../src/trace/notes-diff";

describe("notes-file diff", () => {
  it("append adds a line", () => {
    const d = lineDiff("call the dentist\n", "call the dentist\nbuy milk\n");
    expect(d).toEqual([
      { op: "same", text: "call the dentist" },
      { op: "add", text: "buy milk" },
    ]);
    expect(summarize(d)).toMatchObject({ headline: "1 note added", destructive: false });
  });
  it("write instead of append replaces everything and is called out", () => {
    const d = lineDiff("call the dentist\nwater the plants\n", "buy milk\n");
    expect(d.filter((x) => x.op === "del").map((x) => x.text)).toEqual(["call the dentist", "water the plants"]);
    expect(summarize(d)).toMatchObject({
      headline: "2 notes deleted, 1 added",
      destructive: true,
      removed: 2,
      added: 1,
    });
  });
  it("update changes one line; clear empties the file", () => {
    expect(summarize(lineDiff("a\nbuy milk\nc\n", "a\nbuy oat milk\nc\n")).headline).toBe("1 note changed");
    expect(summarize(lineDiff("a\nb\n", "")).headline).toBe("emptied: 2 notes deleted");
  });
  it("lines are notes; the final newline makes no empty note", () => {
    expect(noteLines("")).toEqual([]);
    expect(noteLines("a\nb")).toEqual(["a", "b"]);
    expect(noteLines("a\n\nb\n")).toEqual(["a", "", "b"]);
  });
});
