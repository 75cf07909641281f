/**
 * Splits a rendered prompt into the pieces the prompt view draws: one per segment (or gap between
 * segments), cut again at `newFrom` — where the prompt stops repeating the previous request's — so
 * the resent part can be dimmed without losing any segment's colour or JSON pointer.
 */
export interface PieceSegment {
  start: number;
  end: number;
  kind: string;
  role?: string | undefined;
  path?: string | undefined;
}

export interface Piece<S extends PieceSegment = PieceSegment> {
  start: number;
  end: number;
  seg: S | null;
}

export function pieces<S extends PieceSegment>(
  text: string,
  segments: readonly S[],
  newFrom: number | undefined,
): Piece<S>[] {
  const sorted = [...segments].filter((sg) => sg.end > sg.start).sort((a, b) => a.start - b.start);
  const out: Piece<S>[] = [];
  let at = 0;
  const push = (start: number, end: number, seg: S | null) => {
    if (newFrom !== undefined && start < newFrom && newFrom < end) {
      out.push({ start, end: newFrom, seg }, { start: newFrom, end, seg });
    } else if (end > start) out.push({ start, end, seg });
  };
  for (const seg of sorted) {
    const start = Math.max(seg.start, at);
    if (start > at) push(at, start, null);
    if (seg.end > start) push(start, seg.end, seg);
    at = Math.max(at, seg.end);
  }
  if (at < text.length) push(at, text.length, null);
  return out;
}

/** A run of whole lines of the prompt, drawn as one block the browser may skip laying out while it is off screen. */
export interface Chunk<S extends PieceSegment = PieceSegment> {
  start: number;
  end: number;
  pieces: Piece<S>[];
  /** Rows it takes at `columns` characters a row: an estimate of its height until it is drawn. */
  rows: number;
}

/**
 * Cuts the pieces into chunks of whole lines, each at least `size` characters (the last may be shorter), cutting a
 * piece where a chunk ends. Together the chunks hold every piece's text once, in order.
 */
export function chunks<S extends PieceSegment>(
  text: string,
  all: readonly Piece<S>[],
  size = 4000,
  columns = 100,
): Chunk<S>[] {
  const ends: number[] = [];
  for (let at = size; at < text.length;) {
    const nl = text.indexOf("\n", at - 1);
    if (nl < 0 || nl + 1 >= text.length) break;
    ends.push(nl + 1);
    at = nl + 1 + size;
  }
  ends.push(text.length);
  const out: Chunk<S>[] = [];
  let i = 0;
  let start = 0;
  for (const end of ends) {
    const ps: Piece<S>[] = [];
    while (i < all.length && (all[i] as Piece<S>).start < end) {
      const p = all[i] as Piece<S>;
      ps.push({ ...p, start: Math.max(p.start, start), end: Math.min(p.end, end) });
      if (p.end > end) break;
      i++;
    }
    out.push({ start, end, pieces: ps, rows: rowsOf(text, start, end, columns) });
    start = end;
  }
  return out;
}

function rowsOf(text: string, start: number, end: number, columns: number): number {
  let rows = 0;
  for (let at = start; at < end;) {
    const nl = text.indexOf("\n", at);
    const lineEnd = nl < 0 || nl >= end ? end : nl;
    rows += Math.max(1, Math.ceil((lineEnd - at) / columns));
    at = lineEnd + 1;
  }
  return rows;
}
