/**
 * The recorder's SQLite writer thread: runs each batch of rows (parameters prepared by the main thread,
 * see write-sql.ts) in one transaction on its own connection, so commits, WAL writes and checkpoints never
 * stall the taps' event loop. Plain JavaScript: a worker file must load as is under every runner (tsx,
 * vitest, node).
 *
 * Protocol: message { batch, rows: [traceParams, exchangeParams][] } → commit (and retention), then
 * shared[0] = batch (Atomics.notify, for a main thread waiting to read) and message { batch, pruned }
 * (or { batch, error }).
 * Message { close: true } closes the connection and ends the thread.
 */
import { parentPort, workerData } from "node:worker_threads";
import Database from "better-sqlite3";

const { file, upsertTraceSql, insertExchangeSql, pruneTracesSql, maxTraces, shared } = workerData;
const done = new Int32Array(shared);
const db = new Database(file);
db.pragma("journal_mode = WAL");
db.pragma("synchronous = NORMAL");
db.pragma("foreign_keys = ON");
db.pragma("busy_timeout = 5000");
const upsertTrace = db.prepare(upsertTraceSql);
const insertExchange = db.prepare(insertExchangeSql);
const pruneTraces = db.prepare(pruneTracesSql);

// Structured clone turns Buffers into Uint8Arrays; better-sqlite3 binds Buffers (blobs of binary bodies).
const bindable = (v) => (v instanceof Uint8Array && !Buffer.isBuffer(v) ? Buffer.from(v.buffer, v.byteOffset, v.byteLength) : v);

// Returns the ids of traces pruned by retention (MAX_TRACES; 0 keeps everything), in the same transaction.
const write = db.transaction((rows) => {
  for (const [trace, exchange] of rows) {
    upsertTrace.run(trace);
    insertExchange.run(exchange.map(bindable));
  }
  return maxTraces > 0 ? pruneTraces.all(maxTraces).map((r) => r.id) : [];
});

parentPort.on("message", (msg) => {
  if (msg.close) {
    db.close();
    parentPort.close();
    return;
  }
  let error = null;
  let pruned = [];
  try {
    pruned = write(msg.rows);
  } catch (err) {
    error = err instanceof Error ? err.stack ?? err.message : String(err);
    Atomics.store(done, 1, 1);
  }
  Atomics.store(done, 0, msg.batch);
  Atomics.notify(done, 0);
  parentPort.postMessage(error === null ? { batch: msg.batch, pruned } : { batch: msg.batch, error });
});
