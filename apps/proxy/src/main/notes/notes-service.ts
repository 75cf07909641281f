/**
 * The notes file as the recorder sees it: decides whether it can watch the file (a local one) or not
 * (NOTES_FILE=off, or an MCP server on another machine whose file is not ours to read), and owns the
 * watcher, its table and the reset.
 */
import path from "node:path";
import type { NotesWatch } from "@hopscope/shared/trace/notes-file";
import type { ExchangeSummary } from "@hopscope/shared/trace/schemas";
import Database from "better-sqlite3";
import type { Announce } from "../../link/frames";
import type { Logger } from "../../logger";
import { causeAt, toolCallRunning, type CauseDeps } from "./cause-now";
import { NotesTable } from "./notes-table";
import { NotesWatcher } from "./notes-watcher";

export interface NotesConfig {
  /** Absolute path, or null for NOTES_FILE=off. */
  file: string | null;
  /** Whether NOTES_FILE was set (an explicit file is watched even when the MCP server looks remote). */
  explicit: boolean;
  maxBytes: number;
  mcpUpstream: string;
  /** Where relative names are shown from (the repository root). */
  root: string;
  /** The recorder's database file: the changes go in a file beside it (`<name>.notes.sqlite`). */
  dbFile: string;
}

export interface NotesService {
  watch: NotesWatch;
  table: NotesTable;
  watcher: NotesWatcher | null;
  file: string | null;
  /** A tools/call is in flight through the MCP tap. */
  busy(): Promise<boolean>;
  close(): void;
}

const LOOPBACK = new Set(["127.0.0.1", "localhost", "[::1]", "::1"]);

/**
 * The changes live in a database file of their own beside the recorder's: written here, on this thread,
 * they never contend for the lock of the recording thread's writer (a change is one small insert).
 */
function openNotesDb(dbFile: string): Database.Database {
  const db = new Database(
    path.join(path.dirname(dbFile), `${path.basename(dbFile, path.extname(dbFile))}.notes.sqlite`),
  );
  db.pragma("journal_mode = WAL");
  db.pragma("synchronous = NORMAL");
  return db;
}

export interface NotesDeps {
  announce: Announce;
  inFlight: () => Promise<ExchangeSummary[]>;
  /** Stored tools/calls, for a change noticed after its call ended. */
  stored: CauseDeps["stored"];
  logger: Logger;
  /** How long a noticed change waits for the recorder to catch up before its cause is decided. */
  settleMs?: number;
}

export async function startNotes(config: NotesConfig, deps: NotesDeps): Promise<NotesService> {
  const db = openNotesDb(config.dbFile);
  const table = new NotesTable(db);
  const remote = !LOOPBACK.has(new URL(config.mcpUpstream).hostname);
  const busy = async () => toolCallRunning(await deps.inFlight());
  if (config.file === null || (remote && !config.explicit)) {
    const watch: NotesWatch =
      config.file === null ? { state: "off" } : { state: "remote", upstream: config.mcpUpstream };
    return { watch, table, watcher: null, file: null, busy, close: () => db.close() };
  }
  const rel = path.relative(config.root, config.file);
  // `data/db` under the repository; elsewhere its folder and name (the full path is in the lane's tooltip).
  const outside = rel.startsWith("..") || path.isAbsolute(rel);
  const display = outside
    ? `…/${path.basename(path.dirname(config.file))}/${path.basename(config.file)}`
    : rel.split(path.sep).join("/");
  const watcher = new NotesWatcher({
    file: config.file,
    display,
    maxBytes: config.maxBytes,
    table,
    announce: deps.announce,
    causeAt: (at) => causeAt({ inFlight: deps.inFlight, stored: deps.stored, settleMs: deps.settleMs ?? 150 }, at),
    logger: deps.logger,
  });
  try {
    await watcher.start();
  } catch (err) {
    db.close();
    throw err;
  }
  return {
    watch: { state: "watching", file: display, path: config.file, maxBytes: config.maxBytes },
    table,
    watcher,
    file: config.file,
    busy,
    close: () => {
      watcher.close();
      db.close();
    },
  };
}
