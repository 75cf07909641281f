/** The hop log's line for a change of the notes file: which file, what changed, and what caused it. */
import type { NotesChange } from "@hopscope/shared/trace/notes-file";
import { lineDiff, summarize } from "@hopscope/shared/trace/notes-diff";

export function formatNotesLine(c: NotesChange): string {
  const text = (b: NotesChange["before"]) => (b?.encoding === "utf8" ? b.data : "");
  const binary = c.before?.encoding === "base64" || c.after?.encoding === "base64";
  const what =
    c.event !== "changed" ? (c.detail ?? (c.event === "deleted" ? "the file was deleted" : c.event)) : binary ? `${c.size ?? 0} bytes, not text` : summarize(lineDiff(text(c.before), text(c.after))).headline;
  const cause = c.cause.kind === "tool-call" ? `tools/call ${c.cause.toolName ?? ""}`.trim() : c.cause.kind === "reset" ? `reset to "${c.cause.set}"` : "no tool call running";
  return `       file          ${c.file}  ${what}  (${cause})`;
}
