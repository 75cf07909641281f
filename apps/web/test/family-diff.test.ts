import { describe, expect, it } from "vitest";
import { familyDiff, familyLabel } from "../src/models/family-diff";

describe("familyDiff", () => {
  it("pairs the lines that differ and counts UTF-8 bytes", () => {
    const now = "<|im_start|>system\n{a {object [x] {}}}\n{b é}\n</tools>";
    const then = '<|im_start|>system\n{"name":"a"}\n{"name":"b","d":"é"}\n</tools>';
    const d = familyDiff(now, then);
    expect(d.aligned).toBe(true);
    expect(d.pairs).toEqual([
      { line: 1, now: "{a {object [x] {}}}", then: '{"name":"a"}' },
      { line: 2, now: "{b é}", then: '{"name":"b","d":"é"}' },
    ]);
    expect(d.bytesNow).toBe(now.length + 1);
    expect(d.bytesThen).toBe(then.length + 1);
  });
  it("gives no pairs when the prompts do not line up", () => {
    const d = familyDiff("a\nb", "a\nb\nc");
    expect(d).toMatchObject({ aligned: false, pairs: [] });
  });
});

describe("familyLabel", () => {
  it("names the family of any version string, and nothing for a string that is not one", () => {
    expect(familyLabel("0.33.0-rc2")).toBe("Ollama 0.20+ (today's)");
    expect(familyLabel("0.14.1")).toBe("Ollama 0.14");
    expect(familyLabel("0.9.6")).toBe("Ollama 0.13.5 and earlier");
    expect(familyLabel("dev")).toBeNull();
  });
});
