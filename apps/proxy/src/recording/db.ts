/**
 * The SQLite database (better-sqlite3). WAL with synchronous=NORMAL: a committed batch survives a
 * crash of the proxy (only an OS crash could lose the last batches), and writers never block readers.
 */
import Database from "better-sqlite3";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

export type Db = Database.Database;

// traces is WITHOUT ROWID: its text primary key is the table itself, one B-tree fewer to write per new trace
// (most live traces are new: one exchange each). A database created before keeps its layout; both work.
const SCHEMA = `
CREATE TABLE IF NOT EXISTS traces (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  name_custom INTEGER NOT NULL DEFAULT 0,
  name_rank INTEGER NOT NULL DEFAULT 0,
  source TEXT NOT NULL,
  created_at REAL NOT NULL,
  updated_at REAL NOT NULL,
  grouped_by TEXT NOT NULL,
  saved_as TEXT
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS traces_created ON traces (created_at DESC, id DESC);
CREATE TABLE IF NOT EXISTS exchanges (
  id INTEGER PRIMARY KEY,
  trace_id TEXT NOT NULL REFERENCES traces (id) ON DELETE CASCADE,
  seq INTEGER NOT NULL,
  tap TEXT NOT NULL,
  method TEXT NOT NULL,
  url TEXT NOT NULL,
  upstream TEXT NOT NULL,
  status INTEGER,
  state TEXT NOT NULL,
  error TEXT,
  t_start REAL NOT NULL,
  t_request_end REAL,
  t_first_byte REAL,
  t_end REAL,
  request_headers TEXT NOT NULL,
  response_headers TEXT NOT NULL,
  request_body,
  request_meta TEXT,
  response_body,
  response_meta TEXT,
  chunks TEXT NOT NULL,
  classification TEXT NOT NULL,
  tool_messages TEXT,
  simulated INTEGER,
  title TEXT,
  request_part INTEGER REFERENCES parts (id),
  request_part_at INTEGER
);
CREATE INDEX IF NOT EXISTS exchanges_trace ON exchanges (trace_id, seq, id);
CREATE TABLE IF NOT EXISTS parts (
  id INTEGER PRIMARY KEY,
  hash TEXT NOT NULL,
  size INTEGER NOT NULL,
  bytes BLOB NOT NULL
);
CREATE INDEX IF NOT EXISTS parts_hash ON parts (hash);
`;

/**
 * Columns added since the first layout, each with what an older row means: a database written before them
 * gets them on open (NULL: the body is stored whole). Their index comes after, since it needs them.
 */
const ADDED_COLUMNS: readonly { table: string; column: string; type: string }[] = [
  { table: "exchanges", column: "request_part", type: "INTEGER REFERENCES parts (id)" },
  { table: "exchanges", column: "request_part_at", type: "INTEGER" },
];
// Partial: most exchanges have no part, and the index is read only to find parts nothing refers to any more.
const AFTER_COLUMNS = `CREATE INDEX IF NOT EXISTS exchanges_part ON exchanges (request_part) WHERE request_part IS NOT NULL;`;

function addMissingColumns(db: Db): void {
  for (const { table, column, type } of ADDED_COLUMNS) {
    const columns = db.prepare(`SELECT name FROM pragma_table_info(?)`).all(table) as { name: string }[];
    if (!columns.some((c) => c.name === column)) db.exec(`ALTER TABLE ${table} ADD COLUMN ${column} ${type}`);
  }
  db.exec(AFTER_COLUMNS);
}

/** One set of pragmas for every connection (the recording thread's writer and the API's reader). */
export function openDb(file: string): Db {
  const db = new Database(file);
  db.pragma("journal_mode = WAL");
  db.pragma("synchronous = NORMAL");
  db.pragma("foreign_keys = ON");
  // Short: a writer that cannot get the lock gives up on that batch (its exchanges are reported as not
  // stored) rather than holding up the recording thread for long.
  db.pragma("busy_timeout = 1000");
  db.exec(SCHEMA);
  addMissingColumns(db);
  return db;
}

/**
 * Where the database lives. `:memory:` cannot be shared between the writer's thread and the reader's, so it
 * becomes a fresh file in the OS temp dir, removed when the recorder closes: one write path for every database.
 */
export function dbLocation(file: string): { file: string; remove: () => void } {
  if (file !== ":memory:") {
    mkdirSync(path.dirname(file), { recursive: true });
    return { file, remove: () => {} };
  }
  const dir = mkdtempSync(path.join(tmpdir(), "hopscope-memory-"));
  return { file: path.join(dir, "hopscope.sqlite"), remove: () => rmSync(dir, { recursive: true, force: true }) };
}
