import { describe, expect, it } from "vitest";
import { BAND_PAD_REM, MARK_REM, bandRem, layoutRows, rowAt } from "../src/models/row-layout";

describe("layoutRows", () => {
  it("gives a row with notes marks a band below its arrows, one line per mark", () => {
    const l = layoutRows([0, 0, 1, 2], { base: 4, compactBelow: 3 });
    expect(l.arrows).toBe(4);
    expect(l.heights).toEqual([4, 4, 4 + MARK_REM + BAND_PAD_REM, 4 + 2 * MARK_REM + BAND_PAD_REM]);
    expect(l.tops).toEqual([0, 4, 8, 12 + bandRem(1)]);
    expect(l.total).toBeCloseTo(16 + bandRem(1) + bandRem(2));
    expect(l.compact).toBe(false);
  });

  it("fits: the arrows shrink so the rows and bands fill the view, not below min (then compact)", () => {
    const fitted = layoutRows([0, 1, 0, 0], { base: 4, compactBelow: 3, fit: { viewport: 12 + bandRem(1), min: 2 } });
    expect(fitted.arrows).toBeCloseTo(3);
    expect(fitted.total).toBeCloseTo(12 + bandRem(1));
    const roomy = layoutRows([0, 0], { base: 4, compactBelow: 3, fit: { viewport: 40, min: 2 } });
    expect(roomy.arrows).toBe(4);
    const tight = layoutRows(Array(18).fill(0), { base: 4, compactBelow: 3, fit: { viewport: 30, min: 2.45 } });
    expect(tight.arrows).toBe(2.45);
    expect(tight.compact).toBe(true);
    expect(tight.total).toBeGreaterThan(30);
  });

  it("finds the row at a height", () => {
    const l = layoutRows([0, 1, 0], { base: 4, compactBelow: 3 });
    expect([0, 3.9, 4, 4 + 4 + bandRem(1) - 0.01, 8 + bandRem(1), 100, -5].map((y) => rowAt(l, y))).toEqual([
      0, 0, 1, 1, 2, 2, 0,
    ]);
    expect(rowAt(layoutRows([], { base: 4, compactBelow: 3 }), 10)).toBe(0);
  });
});
