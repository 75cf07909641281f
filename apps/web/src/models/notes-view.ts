/**
 * How a notes-file change reads on screen: its diff and one-line summary, whether it lost notes, what
 * caused it, and which hop row of the trace it belongs on (the tools/call that caused it, else the
 * last hop before it happened).
 */
import type { NotesChange } from "@hopscope/shared/trace/notes-file";
import { lineDiff, summarize, type ChangeSummary, type DiffLine } from "@hopscope/shared/trace/notes-diff";
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
    out.push([...bytes.subarray(i, Math.min(i + 16, bytes.length, max))].map((b) => b.toString(16).padStart(2, "0")).join(" "));
  }
  if (bytes.length > max) out.push(`… ${bytes.length - max} more bytes`);
  return out;
}

export function causeText(c: NotesChange): string {
  switch (c.cause.kind) {
    case "tool-call":
      return `by tools/call ${c.cause.toolName ?? ""}`.trim();
    case "reset":
      return `reset by the presenter to “${c.cause.set}”`;
    case "none":
      return "with no tool call running (edited by hand, or by a client outside the taps)";
  }
}

export function viewOf(c: NotesChange): ChangeView {
  const cause = causeText(c);
  switch (c.event) {
    case "deleted":
      return { headline: "the file was deleted", short: "file deleted", destructive: true, diff: null, summary: null, cause };
    case "not-a-file":
      return { headline: c.detail ?? "the file was replaced by something that is not a file", short: "not a file any more", destructive: true, diff: null, summary: null, cause };
    case "too-large":
      return { headline: `too large to show: ${c.detail ?? `${c.size} bytes`}`, short: "over the size limit", destructive: false, diff: null, summary: null, cause };
    case "unreadable":
      return { headline: `the recorder cannot read it: ${c.detail ?? "unknown error"}`, short: "unreadable", destructive: false, diff: null, summary: null, cause };
    case "changed": {
      const binary = c.before?.encoding === "base64" || c.after?.encoding === "base64";
      if (binary) return { headline: `now ${c.size ?? 0} bytes that are not text`, short: `${c.size ?? 0} bytes, not text`, destructive: false, diff: null, summary: null, cause };
      const diff = lineDiff(bodyText(c.before), bodyText(c.after));
      const summary = summarize(diff);
      const short = summary.removed > 0 && summary.added > 0 && !summary.headline.endsWith("changed") ? `${summary.removed} note${summary.removed === 1 ? "" : "s"} deleted` : summary.headline;
      return { headline: summary.headline, short, destructive: summary.destructive, diff, summary, cause };
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
export function changesAt<T extends { at: number }>(changes: readonly T[], replayStart: number, cursor: number | null): readonly T[] {
  return cursor === null ? changes : changes.filter((c) => c.at - replayStart <= cursor);
}
