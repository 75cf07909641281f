/**
 * One notes-file change in words — "1 note added", "2 notes deleted, 1 added", "the file was deleted" —
 * and whether notes were lost: what the file lane shows, and what every export says of the change (HAR,
 * OTLP, Mermaid), so a change reads the same everywhere.
 */
import { lineDiff, summarize, type ChangeSummary } from "./notes-diff";
import type { NotesChange } from "./schemas";

export interface NotesHeadline {
  headline: string;
  /** Notes were lost (deleted lines, the file deleted or replaced by a non-file). */
  destructive: boolean;
  /** The line summary, for a change of text (null for binary content and for the other events). */
  summary: ChangeSummary | null;
  /** Either side is bytes that are not UTF-8 text. */
  binary: boolean;
}

const text = (b: NotesChange["before"]) => (b?.encoding === "utf8" ? b.data : "");

export function notesHeadline(c: NotesChange): NotesHeadline {
  const none = { summary: null, binary: false };
  switch (c.event) {
    case "deleted":
      return { ...none, headline: "the file was deleted", destructive: true };
    case "not-a-file":
      return {
        ...none,
        headline: c.detail ?? "the file was replaced by something that is not a file",
        destructive: true,
      };
    case "too-large":
      return { ...none, headline: `too large to show: ${c.detail ?? `${c.size} bytes`}`, destructive: false };
    case "unreadable":
      return { ...none, headline: `the recorder cannot read it: ${c.detail ?? "unknown error"}`, destructive: false };
    case "changed": {
      if (c.before?.encoding === "base64" || c.after?.encoding === "base64") {
        return {
          headline: `now ${c.size ?? 0} bytes that are not text`,
          destructive: false,
          summary: null,
          binary: true,
        };
      }
      const summary = summarize(lineDiff(text(c.before), text(c.after)));
      return { headline: summary.headline, destructive: summary.destructive, summary, binary: false };
    }
  }
}

/** What caused it, in words: "by tools/call append", "reset to “dentist”", "with no tool call running". */
export function notesCauseText(c: NotesChange): string {
  switch (c.cause.kind) {
    case "tool-call":
      return `by tools/call ${c.cause.toolName ?? ""}`.trim();
    case "reset":
      return `reset by the presenter to “${c.cause.set}”`;
    case "none":
      return "with no tool call running (edited by hand, or by a client outside the taps)";
  }
}
