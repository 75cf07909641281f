/**
 * The database layout before request parts (recording/part-store.ts), as a database written then has it:
 * the recorder must open it, add what is missing, and read its rows as they were.
 */
import type { SqlValue } from "../src/recording/write-sql";

export const OLD_LAYOUT = `
CREATE TABLE traces (
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
CREATE INDEX traces_created ON traces (created_at DESC, id DESC);
CREATE TABLE exchanges (
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
  title TEXT
);
CREATE INDEX exchanges_trace ON exchanges (trace_id, seq, id);
`;

/** A complete model exchange whose request body (a big one, kept as its bytes) is stored whole. */
export const oldExchangeRow = {
  sql: `INSERT INTO exchanges (id, trace_id, seq, tap, method, url, upstream, status, state, t_start, t_request_end,
    t_first_byte, t_end, request_headers, response_headers, request_body, request_meta, response_meta, chunks, classification)
    VALUES (?, ?, 1, 'model', 'POST', '/v1/messages', 'http://127.0.0.1:9', 200, 'complete', 1, 1, 2, 2, '[]', '[]',
    ?, ?, 'null', '[]', '{"kind":"other"}')`,
  params: (id: number, traceId: string, body: Buffer): SqlValue[] => [
    id,
    traceId,
    body,
    JSON.stringify({
      encoding: "utf8",
      size: body.length,
      storedSize: body.length,
      truncated: false,
      contentType: "application/json",
    }),
  ],
};
