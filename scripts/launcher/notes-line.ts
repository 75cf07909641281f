/** The hop log's line for a change of the notes file: which file, what changed, and what caused it. */
import type { NotesChange } from "@hopscope/shared/trace/notes-file";
import { notesHeadline } from "@hopscope/shared/trace/notes-headline";

export function formatNotesLine(c: NotesChange): string {
  // The change in the same words as the file lane and the exports; the cause kept short for the terminal.
  const what = notesHeadline(c).headline;
  const cause =
    c.cause.kind === "tool-call"
      ? `tools/call ${c.cause.toolName ?? ""}`.trim()
      : c.cause.kind === "reset"
        ? `reset to "${c.cause.set}"`
        : "no tool call running";
  return `       file          ${c.file}  ${what}  (${cause})`;
}
