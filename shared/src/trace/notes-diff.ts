/**
 * Before/after of a notes-file change, line by line (a note is a line: append adds one, write replaces
 * them all, update changes one, clear empties the file), and its one-line summary for the file lane:
 * "1 note added", "2 notes deleted, 1 added". Lines are compared by a longest-common-subsequence diff
 * on what differs between the common start and end; past MAX_CELLS the middle counts as replaced.
 */

export type DiffLine = { op: "same" | "add" | "del"; text: string };

export interface ChangeSummary {
  added: number;
  removed: number;
  /** Notes were lost (a line removed that is not there afterwards). */
  destructive: boolean;
  headline: string;
}

const MAX_CELLS = 1_000_000;

/** The notes of a text: its lines, without the empty one after the final newline. */
export function noteLines(text: string): string[] {
  if (text === "") return [];
  const lines = text.split("\n");
  if (lines.at(-1) === "") lines.pop();
  return lines;
}

export function lineDiff(before: string, after: string): DiffLine[] {
  const a = noteLines(before);
  const b = noteLines(after);
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  const same = (xs: string[]): DiffLine[] => xs.map((text) => ({ op: "same", text }));
  return [...same(a.slice(0, start)), ...middle(a.slice(start, endA), b.slice(start, endB)), ...same(a.slice(endA))];
}

function middle(a: string[], b: string[]): DiffLine[] {
  if (a.length * b.length > MAX_CELLS || a.length === 0 || b.length === 0) {
    return [...a.map((text) => ({ op: "del" as const, text })), ...b.map((text) => ({ op: "add" as const, text }))];
  }
  // lcs[i][j]: length of the longest common subsequence of a[i..] and b[j..].
  const lcs = Array.from({ length: a.length + 1 }, () => new Uint32Array(b.length + 1));
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      lcs[i]![j] = a[i] === b[j] ? lcs[i + 1]![j + 1]! + 1 : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!);
    }
  }
  const out: DiffLine[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      out.push({ op: "same", text: a[i]! });
      i++;
      j++;
    } else if (lcs[i + 1]![j]! >= lcs[i]![j + 1]!) out.push({ op: "del", text: a[i++]! });
    else out.push({ op: "add", text: b[j++]! });
  }
  while (i < a.length) out.push({ op: "del", text: a[i++]! });
  while (j < b.length) out.push({ op: "add", text: b[j++]! });
  return out;
}

const notes = (n: number) => `${n} note${n === 1 ? "" : "s"}`;

export function summarize(diff: readonly DiffLine[]): ChangeSummary {
  const added = diff.filter((d) => d.op === "add").length;
  const removed = diff.filter((d) => d.op === "del").length;
  const kept = diff.length - added - removed;
  let headline: string;
  if (added === 0 && removed === 0) headline = "same notes (whitespace or line endings changed)";
  else if (removed > 0 && added === 0 && kept === 0) headline = `emptied: ${notes(removed)} deleted`;
  else if (removed > 0 && added > 0)
    headline =
      removed === added && kept > 0 ? `${notes(removed)} changed` : `${notes(removed)} deleted, ${added} added`;
  else if (removed > 0) headline = `${notes(removed)} deleted`;
  else headline = `${notes(added)} added`;
  return { added, removed, destructive: removed > 0, headline };
}
