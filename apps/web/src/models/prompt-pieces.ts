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
