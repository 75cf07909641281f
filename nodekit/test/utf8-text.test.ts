import { describe, expect, it } from "vitest";
import { utf8Text } from "../src/utf8-text";

/** A deterministic generator, so a failure names its seed. */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s ^ (s >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) >>> 0;
    return s / 2 ** 32;
  };
}

const PIECES = ["a", '{"k":1}', " ", "é", "✓", "🥛", "中文", "\n", "\u2028", "x".repeat(700)];

describe("utf8Text", () => {
  it("decodes mostly-ASCII text with characters of every length exactly as toString does", () => {
    for (let seed = 1; seed <= 40; seed++) {
      const next = random(seed);
      let text = "";
      while (text.length < 3000 + seed * 500) text += PIECES[Math.floor(next() * PIECES.length)];
      const bytes = Buffer.from(text);
      expect(utf8Text(bytes), `seed ${seed}`).toBe(text);
      const from = Math.floor(next() * 100);
      expect(utf8Text(bytes, from, bytes.length - from), `seed ${seed} range`).toBe(
        bytes.toString("utf8", from, bytes.length - from),
      );
    }
  });

  it("decodes invalid bytes to the same replacement characters as toString", () => {
    for (let seed = 1; seed <= 40; seed++) {
      const next = random(seed);
      const bytes = Buffer.alloc(5000 + seed * 97, 0x61);
      for (let i = 0; i < 60; i++) bytes[Math.floor(next() * bytes.length)] = 0x80 + Math.floor(next() * 0x80);
      expect(utf8Text(bytes), `seed ${seed}`).toBe(bytes.toString("utf8"));
    }
  });

  it("gives all-ASCII text and a short text unchanged", () => {
    expect(utf8Text(Buffer.from("a".repeat(5000)))).toBe("a".repeat(5000));
    expect(utf8Text(Buffer.from("é✓"))).toBe("é✓");
    expect(utf8Text(Buffer.alloc(0))).toBe("");
  });
});
