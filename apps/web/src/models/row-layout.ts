/**
 * Where each hop row of the sequence view goes. A row is its arrows' height plus, when the notes file
 * changed during that hop, a band below them for the file lane's marks (one line per change), so a mark
 * never sits on an arrow or a label. Above the first row a strip holds the file lane's name. With `fit`
 * (presenter mode) the arrows' height shrinks so a whole turn stays on screen, down to `min`; below
 * that the rows keep `min` and the view scrolls (the caller then says how many hops are out of view).
 * Pure: heights in rem.
 */

/** One line of marks in a band. */
export const MARK_REM = 1.35;
/** Room above and below a band's marks. */
export const BAND_PAD_REM = 0.2;
/** The strip above the first row that holds the file lane's name, with room below it (it never touches hop 1). */
export const NAME_STRIP_REM = 1.6;

export interface RowLayout {
  /** Top of each row, from the top of the rows area (below the name strip). */
  tops: number[];
  /** Height of each row (arrows + band). */
  heights: number[];
  /** Height of each row's arrows (the band starts there). */
  arrows: number;
  /** Height of the rows area below the name strip. */
  total: number;
  /** Rows shrunk below their roomy height (labels get one line). */
  compact: boolean;
}

export interface LayoutOptions {
  /** The roomy height of a row's arrows. */
  base: number;
  /** Shrink the arrows to fit this height (the view's, below the name strip), not below `min`. */
  fit?: { viewport: number; min: number };
  /** Below this arrows' height a row is compact. */
  compactBelow: number;
}

export function bandRem(marks: number): number {
  return marks > 0 ? marks * MARK_REM + BAND_PAD_REM : 0;
}

/** `marks[i]`: how many notes-file marks row i carries. */
export function layoutRows(marks: readonly number[], opts: LayoutOptions): RowLayout {
  const bands = marks.map(bandRem);
  const bandTotal = bands.reduce((a, b) => a + b, 0);
  const n = marks.length;
  const arrows =
    opts.fit && n > 0 ? Math.min(opts.base, Math.max(opts.fit.min, (opts.fit.viewport - bandTotal) / n)) : opts.base;
  const tops: number[] = [];
  const heights: number[] = [];
  let y = 0;
  for (const band of bands) {
    tops.push(y);
    heights.push(arrows + band);
    y += arrows + band;
  }
  return { tops, heights, arrows, total: y, compact: arrows < opts.compactBelow };
}

/** The index of the row at `y` rem (clamped to the rows there are). */
export function rowAt(layout: RowLayout, y: number): number {
  let lo = 0;
  let hi = layout.tops.length - 1;
  if (hi < 0) return 0;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if ((layout.tops[mid] as number) <= y) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}
