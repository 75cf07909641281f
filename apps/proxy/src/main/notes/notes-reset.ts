/**
 * Reset for demos: sets the notes file to a named starting set. The MCP server owns the file and
 * serialises its own writes, but it reads the file afresh for every operation and replaces it by
 * rename; so the recorder replaces it the same way (a temp file in the same folder, flushed, renamed
 * over it) — a reader only ever sees the old or the new notes. It refuses while a tools/call is in flight
 * through the MCP tap, and writes holding the file's lock, which the notes server holds around each
 * read-modify-write (over HTTP or stdio alike): a tool call that the tap did not see yet, or that passes
 * no tap, lands wholly before or wholly after the reset, never across it.
 * The reset goes through no tap, so it is never a hop; it is recorded as a change caused by "reset".
 */
import { randomBytes } from "node:crypto";
import { mkdir, rename, rm, writeFile } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { NOTES_SETS, type NotesChange, type NotesSetName } from "@hopscope/shared/trace/notes-file";
import { withFileLock } from "@hopscope/nodekit/file-lock";
import type { NotesWatcher } from "./notes-watcher";

export class ResetRefused extends Error {}

export async function resetNotes(opts: {
  file: string;
  set: NotesSetName;
  watcher: NotesWatcher;
  busy: () => Promise<boolean>;
}): Promise<NotesChange | null> {
  if (await opts.busy())
    throw new ResetRefused(
      "a tools/call is running on the MCP server right now; reset the notes when the agent's run has ended",
    );
  return withFileLock(opts.file, () =>
    opts.watcher.rewrite(() => replaceFile(opts.file, NOTES_SETS[opts.set]), { kind: "reset", set: opts.set }),
  );
}

async function replaceFile(file: string, text: string): Promise<void> {
  const dir = dirname(file);
  await mkdir(dir, { recursive: true });
  const tmp = join(dir, `.${basename(file)}.reset-${randomBytes(6).toString("hex")}.tmp`);
  try {
    await writeFile(tmp, text, { flag: "wx", mode: 0o644, flush: true });
    await rename(tmp, file);
  } catch (err) {
    await rm(tmp, { force: true });
    throw err;
  }
}
