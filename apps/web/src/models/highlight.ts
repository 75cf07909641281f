/** Splits text around case-insensitive matches of a query, for marking a followed value in place. */
export interface Part {
  text: string;
  match: boolean;
}

/** Marks beyond this many are not drawn (a value repeated 100,000 times in a big body). */
export const MAX_MARKS = 500;

export function splitMatches(text: string, query: string): Part[] {
  const q = query.trim().toLowerCase();
  if (!q) return [{ text, match: false }];
  const lower = text.toLowerCase();
  const parts: Part[] = [];
  let at = 0;
  for (let n = 0; n < MAX_MARKS; n++) {
    const i = lower.indexOf(q, at);
    if (i < 0) break;
    if (i > at) parts.push({ text: text.slice(at, i), match: false });
    parts.push({ text: text.slice(i, i + q.length), match: true });
    at = i + q.length;
  }
  if (at < text.length) parts.push({ text: text.slice(at), match: false });
  return parts;
}
