/**
 * The notes-file changes in SQLite, in a table of their own (`notes_changes`, in its own file beside the
 * recorder's database): one row per change, the change itself as validated JSON. Writes are rare (one
 * per file change), so they are made directly rather than through the recording thread.
 */
import { NotesChangeSchema, type NotesChange } from "@hopscope/shared/trace/notes-file";
import type Database from "better-sqlite3";

type Db = Database.Database;

/** Changes kept; older ones are deleted as new ones come. */
export const MAX_NOTES_CHANGES = 5000;

const SCHEMA = `
CREATE TABLE IF NOT EXISTS notes_changes (
  id INTEGER PRIMARY KEY,
  at REAL NOT NULL,
  trace_id TEXT,
  cause TEXT NOT NULL,
  change TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS notes_changes_trace ON notes_changes (trace_id, id);
CREATE INDEX IF NOT EXISTS notes_changes_at ON notes_changes (at);
`;

export class NotesTable {
  constructor(private readonly db: Db) {
    db.exec(SCHEMA);
  }

  nextId(): number {
    const row = this.db.prepare("SELECT COALESCE(MAX(id), 0) AS id FROM notes_changes").get() as { id: number };
    return row.id + 1;
  }

  insert(change: NotesChange): void {
    this.db.transaction(() => {
      this.db
        .prepare("INSERT INTO notes_changes (id, at, trace_id, cause, change) VALUES (?, ?, ?, ?, ?)")
        .run(change.id, change.at, change.traceId, change.cause.kind, JSON.stringify(change));
      this.db.prepare("DELETE FROM notes_changes WHERE id <= ?").run(change.id - MAX_NOTES_CHANGES);
    })();
  }

  /** The latest `limit` changes, oldest first. */
  latest(limit: number): NotesChange[] {
    const rows = this.db.prepare("SELECT change FROM notes_changes ORDER BY id DESC LIMIT ?").all(limit) as {
      change: string;
    }[];
    return rows.reverse().map(parse);
  }

  /** A trace's changes, plus the changes with no tool call (hand edits, resets) between `from` and `to`. */
  forTrace(traceId: string, from: number, to: number): NotesChange[] {
    const rows = this.db
      .prepare(
        "SELECT change FROM notes_changes WHERE trace_id = ? OR (trace_id IS NULL AND at BETWEEN ? AND ?) ORDER BY id",
      )
      .all(traceId, from, to) as { change: string }[];
    return rows.map(parse);
  }
}

function parse(row: { change: string }): NotesChange {
  return NotesChangeSchema.parse(JSON.parse(row.change));
}
