/**
 * The file-change recorder: watches the notes file the MCP server owns and records each change with
 * its time and its cause, the `tools/call` running when it happened (taken the moment the change is
 * noticed, before the file is read, since the call may end meanwhile). The folder is watched (the MCP
 * server replaces the file by rename, which a watch on the file itself would lose) and the file is also
 * polled, so a missed event or an unwatchable folder (a bind mount, NFS) only delays a change.
 * A deleted file, one over the size limit, or a directory in its place is recorded as such; nothing
 * here throws into the recorder.
 */
import { watch, type FSWatcher } from "node:fs";
import { stat } from "node:fs/promises";
import { basename, dirname } from "node:path";
import type { NotesCause, NotesChange } from "@hopscope/shared/trace/notes-file";
import type { Announce } from "../../link/frames";
import type { Logger } from "../../logger";
import { contentOf, readFileState, sameState, sizeOf, type FileState } from "./file-state";
import type { NotesTable } from "./notes-table";

export interface NotesWatcherDeps {
  /** Absolute path of the notes file. */
  file: string;
  /** How the file is named on screen (`data/db`). */
  display: string;
  /** The MCP server's size limit (NOTES_MAX_BYTES): a bigger file is recorded as too large. */
  maxBytes: number;
  table: NotesTable;
  announce: Announce;
  /** The cause of a change seen at epoch ms `at`: the tools/call that made it, or none (see cause-now.ts). */
  causeAt: (at: number) => Promise<NotesCause>;
  logger: Logger;
  pollMs?: number;
  /** false: poll only (what happens when the folder cannot be watched, e.g. some bind mounts). */
  watchFolder?: boolean;
  now?: () => number;
}

export class NotesWatcher {
  private state: FileState = { kind: "missing" };
  /** The last id announced: ids come from the table, which imports write to as well (see `newId`). */
  private lastId = 0;
  private watcher: FSWatcher | null = null;
  private timer: ReturnType<typeof setInterval> | null = null;
  private queue: Promise<unknown> = Promise.resolve();
  private closed = false;
  /** The file's identity, size and mtime at the last poll: a poll reads the file only when it changed. */
  private signature = "";

  constructor(private readonly deps: NotesWatcherDeps) {}

  /** Reads the file as it is now (not recorded as a change) and starts watching. */
  async start(): Promise<void> {
    this.state = await readFileState(this.deps.file, this.deps.maxBytes);
    if (this.deps.watchFolder !== false) this.watchFolder();
    this.signature = await signatureOf(this.deps.file);
    this.timer = setInterval(() => void this.poll(), this.deps.pollMs ?? 500);
    this.timer.unref();
  }

  /** The content now, as last read. */
  current(): FileState {
    return this.state;
  }

  /**
   * Looks at the file and records a change if there is one, with `cause`, or else the cause decided for
   * the moment it was noticed. Checks run one at a time, so two never record the same change twice.
   */
  check(cause?: NotesCause): Promise<NotesChange | null> {
    const at = this.now();
    return this.serial(() => this.detect(cause ?? at));
  }

  /** Runs `write` with no check in between, then records what it did with `cause` (used by reset). */
  rewrite(write: () => Promise<void>, cause: NotesCause): Promise<NotesChange | null> {
    return this.serial(async () => {
      // A change made just before (by a call) must not be blamed on the reset.
      await this.detect(this.now());
      await write();
      return this.detect(cause);
    });
  }

  /** A cheap stat; the cause is looked up (and the file read) only when something changed. */
  private async poll(): Promise<void> {
    const sig = await signatureOf(this.deps.file);
    if (sig === this.signature) return;
    this.signature = sig;
    await this.check();
  }

  close(): void {
    this.closed = true;
    this.watcher?.close();
    if (this.timer) clearInterval(this.timer);
  }

  private watchFolder(): void {
    const name = basename(this.deps.file);
    try {
      this.watcher = watch(dirname(this.deps.file), { persistent: false }, (_event, changed) => {
        if (changed === null || changed === name) void this.check();
      });
      this.watcher.on("error", (err) => {
        // The folder went away (or was replaced): polling goes on; watch again when it is back.
        this.deps.logger.warn({ err: (err as Error).message }, "notes folder watch ended; polling only");
        this.watcher?.close();
        this.watcher = null;
      });
    } catch (err) {
      this.deps.logger.warn(
        { err: (err as Error).message, file: this.deps.file },
        "cannot watch the notes folder; polling it",
      );
    }
  }

  private now(): number {
    return (this.deps.now ?? Date.now)();
  }

  /** `cause`: given (a reset), or the time the change was noticed, for `causeAt` to decide. */
  private async detect(cause: NotesCause | number): Promise<NotesChange | null> {
    if (this.closed) return null;
    const seenAt = typeof cause === "number" ? cause : this.now();
    const next = await readFileState(this.deps.file, this.deps.maxBytes);
    if (this.watcher === null && this.deps.watchFolder !== false && next.kind !== "unreadable" && !this.closed)
      this.watchFolder();
    const before = this.state;
    if (sameState(before, next)) return null;
    this.state = next;
    const decided = typeof cause === "number" ? await this.deps.causeAt(cause) : cause;
    if (this.closed) return null;
    const change: NotesChange = {
      id: this.newId(),
      at: seenAt,
      file: this.deps.display,
      event: next.kind === "file" ? "changed" : next.kind === "missing" ? "deleted" : next.kind,
      before: contentOf(before),
      after: contentOf(next),
      size: sizeOf(next),
      ...detailOf(next),
      cause: decided,
      traceId: decided.kind === "tool-call" ? decided.traceId : null,
    };
    try {
      this.deps.table.insert(change);
    } catch (err) {
      // Shown live even when it could not be stored; the log says why it will be missing later.
      this.deps.logger.error({ err: (err as Error).message, change: change.id }, "could not store a notes change");
    }
    this.deps.announce({ type: "notes.changed", change });
    return change;
  }

  /**
   * Asked of the table at each change, not counted here: an import stores a trace file's changes in the
   * same table, and an id counted from startup would collide with theirs (the insert refused, the change
   * lost). Never below the last one announced, even when that one could not be stored.
   */
  private newId(): number {
    this.lastId = Math.max(this.lastId + 1, this.deps.table.nextId());
    return this.lastId;
  }

  private serial<T>(op: () => Promise<T>): Promise<T> {
    const run = this.queue.then(op);
    this.queue = run.catch((err: unknown) =>
      this.deps.logger.error({ err: (err as Error).message }, "notes check failed"),
    );
    return run;
  }
}

async function signatureOf(file: string): Promise<string> {
  try {
    const st = await stat(file);
    return `${st.ino}:${st.size}:${st.mtimeMs}:${st.isFile() ? "f" : "o"}`;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code ?? "error";
  }
}

function detailOf(state: FileState): { detail?: string } {
  if (state.kind === "not-a-file") return { detail: `the notes file was replaced by ${state.what}` };
  if (state.kind === "too-large")
    return { detail: `${state.size} bytes, over the MCP server's limit (NOTES_MAX_BYTES)` };
  if (state.kind === "unreadable") return { detail: state.message };
  return {};
}
