/**
 * How a notes-file change reads on screen: its diff and one-line summary, whether it lost notes, what
 * caused it, and which hop row of the trace it belongs on (the tools/call that caused it, else the
 * last hop before it happened).
 */
import type { NotesChange } from "@hopscope/shared/trace/notes-file";
import { lineDiff, type ChangeSummary, type DiffLine } from "@hopscope/shared/trace/notes-diff";
import { notesCauseText, notesHeadline } from "@hopscope/shared/trace/notes-headline";
import { bodyBytes, bodyText } from "./body";
import type { Hop } from "./hops";

export interface ChangeView {
  headline: string;
  /** The lane mark's text: the loss first, when notes were lost ("2 notes deleted"). */
  short: string;
  destructive: boolean;
  /** The line diff; null when either side is not text (shown as bytes instead). */
  diff: DiffLine[] | null;
  summary: ChangeSummary | null;
  cause: string;
}

/** Bytes as hex, 16 to a line, for content that is not UTF-8 text. */
export function hexLines(bytes: Uint8Array, max = 256): string[] {
  const out: string[] = [];
  for (let i = 0; i < Math.min(bytes.length, max); i += 16) {
    out.push(
      [...bytes.subarray(i, Math.min(i + 16, bytes.length, max))].map((b) => b.toString(16).padStart(2, "0")).join(" "),
    );
  }
  if (bytes.length > max) out.push(`… ${bytes.length - max} more bytes`);
  return out;
}

/** What caused a change, in words (the same words as the exports). */
export const causeText = notesCauseText;

export function viewOf(c: NotesChange): ChangeView {
  const cause = causeText(c);
  const { headline, destructive, summary, binary } = notesHeadline(c);
  switch (c.event) {
    case "deleted":
      return { headline, short: "file deleted", destructive, diff: null, summary, cause };
    case "not-a-file":
      return { headline, short: "not a file any more", destructive, diff: null, summary, cause };
    case "too-large":
      return { headline, short: "over the size limit", destructive, diff: null, summary, cause };
    case "unreadable":
      return { headline, short: "unreadable", destructive, diff: null, summary, cause };
    case "changed": {
      if (binary || !summary)
        return { headline, short: `${c.size ?? 0} bytes, not text`, destructive, diff: null, summary: null, cause };
      const diff = lineDiff(bodyText(c.before), bodyText(c.after));
      // The lane mark puts the loss first when notes were lost ("2 notes deleted").
      const short =
        summary.removed > 0 && summary.added > 0 && !headline.endsWith("changed")
          ? `${summary.removed} note${summary.removed === 1 ? "" : "s"} deleted`
          : headline;
      return { headline, short, destructive, diff, summary, cause };
    }
  }
}

export function bytesOf(c: NotesChange): Uint8Array | null {
  return c.after?.encoding === "base64" ? bodyBytes(c.after) : null;
}

/** The hop a change is drawn on: its tools/call's hop; an uncaused change, the last hop that began before it. */
export function hopOfChange(hops: readonly Hop[], c: NotesChange): Hop | undefined {
  if (c.cause.kind === "tool-call") {
    const id = c.cause.exchangeId;
    // Not on screen yet (a replay before that call): neither is its change.
    return hops.find((h) => h.exchangeId === id);
  }
  let best: Hop | undefined;
  for (const h of hops) if (h.at <= c.at) best = h;
  return best ?? hops[0];
}

/** The changes that had happened at the moment on screen: all of them live; up to the cursor in a replay. */
export function changesAt<T extends { at: number }>(
  changes: readonly T[],
  replayStart: number,
  cursor: number | null,
): readonly T[] {
  return cursor === null ? changes : changes.filter((c) => c.at - replayStart <= cursor);
}

/**
 * The file lane's marks: each change shown, on the hop it is drawn on (changes whose hop is not on screen
 * are left out). `reached`: the latest moment the trace on screen has got to (epoch ms; Infinity once it
 * is over) — a change with no tool call that lies beyond it (a replay stores its changes up front) waits,
 * or it would sit on whatever hop is last for now.
 */
export function laneMarks<T extends NotesChange>(
  hops: readonly Hop[],
  changes: readonly T[],
  reached = Number.POSITIVE_INFINITY,
): { c: T; hop: Hop }[] {
  return changes.flatMap((c) => {
    if (c.cause.kind !== "tool-call" && c.at > reached) return [];
    const hop = hopOfChange(hops, c);
    return hop ? [{ c, hop }] : [];
  });
}
