/**
 * The one write path to SQLite, on the recording thread: recorded exchanges are queued and written in one
 * transaction per batch (every `flushIntervalMs`, or sooner when the batch is large), and the API's writes
 * (rename, delete, save, import) run here too, after what is queued.
 *
 * The disk may fail (full, read-only, locked by another process): then the batch's exchanges are not
 * stored, counted and reported (see StorageHealth), nothing is retried or held (memory stays bounded), and
 * the next batch tries again, so recording comes back by itself when the disk does.
 */
import type { StorageHealth } from "@hopscope/shared/trace/api";
import type { Db } from "./db";
import type { ExchangeRecord } from "../link/exchange-record";
import type { InsertTrace } from "../link/calls";
import { CUSTOM_RANK } from "./trace-title";
import { PartStore } from "./part-store";
import { INSERT_EXCHANGE_SQL, PRUNE_TRACES_SQL, UPSERT_TRACE_SQL, exchangeParams, traceParams } from "./write-sql";

/**
 * A flush this big happens before the interval is up. Bigger batches rewrite each B-tree page (table and
 * index leaves, the WAL) fewer times per exchange; at the bench's ~2,000 exchanges/s the interval still
 * decides, so the crash window stays FLUSH_INTERVAL_MS.
 */
const BATCH_SIZE = 256;
const LAST_NOT_STORED = 20;

export interface StoreWriterOptions {
  flushIntervalMs: number;
  /** Retention: keep at most this many traces, pruning the least recently updated unsaved ones (0: all). */
  maxTraces: number;
  /** After each commit, with the traces it touched and those retention deleted. */
  onCommitted: (traceIds: string[]) => void;
  /** When storage health changes (a failure, a recovery, more exchanges not stored). */
  onHealth: (health: StorageHealth) => void;
}

export class StoreWriter {
  private queue: ExchangeRecord[] = [];
  private timer: NodeJS.Timeout | null = null;
  private readonly insertBatch: (records: ExchangeRecord[]) => string[];
  private readonly maxSeqStmt;
  private readonly parts: PartStore;
  private readonly health: StorageHealth = {
    ok: true,
    error: null,
    since: null,
    notStored: 0,
    lastNotStored: [],
    lastNotStoredAt: null,
  };

  constructor(
    private readonly db: Db,
    private readonly opts: StoreWriterOptions,
  ) {
    const upsertTrace = db.prepare(UPSERT_TRACE_SQL);
    const insertExchange = db.prepare(INSERT_EXCHANGE_SQL);
    const prune = db.prepare(PRUNE_TRACES_SQL);
    const parts = (this.parts = new PartStore(db));
    this.maxSeqStmt = db.prepare("SELECT COALESCE(MAX(seq), 0) AS m FROM exchanges WHERE trace_id = ?");
    // Returns the ids of traces pruned by retention (MAX_TRACES; 0 keeps everything), in the same transaction.
    this.insertBatch = db.transaction((records: ExchangeRecord[]) => {
      // Traces first: every exchange row refers to its trace's. Parameters go as arguments, not one array:
      // better-sqlite3 binds arguments directly, an array element by element (a cost paid on every row).
      for (const trace of traceParams(records)) upsertTrace.run(...trace);
      for (const r of records) insertExchange.run(...exchangeParams(r, parts.cut(r)));
      if (opts.maxTraces === 0) return [];
      const pruned = (prune.all(opts.maxTraces) as { id: string }[]).map((r) => r.id);
      if (pruned.length > 0) parts.sweep();
      return pruned;
    });
  }

  maxExchangeId(): number {
    return (this.db.prepare("SELECT COALESCE(MAX(id), 0) AS m FROM exchanges").get() as { m: number }).m;
  }

  /** Highest seq stored for a trace (queued records of it were numbered by the recorder, which asks once). */
  maxSeq(traceId: string): number {
    return (this.maxSeqStmt.get(traceId) as { m: number }).m;
  }

  enqueue(record: ExchangeRecord): void {
    this.queue.push(record);
    if (this.queue.length >= BATCH_SIZE) this.flush();
    else this.timer ??= setTimeout(() => this.flush(), this.opts.flushIntervalMs);
  }

  /** Writes everything queued in one transaction; a storage failure is reported, not thrown. */
  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.queue.length === 0) return;
    const batch = this.queue;
    this.queue = [];
    const traceIds = [...new Set(batch.map((r) => r.summary.traceId))];
    let pruned: string[];
    try {
      pruned = this.insertBatch(batch);
      this.parts.settle(true);
    } catch (err) {
      this.parts.settle(false);
      return this.failed(
        err,
        batch.map((r) => r.summary.id),
      );
    } finally {
      batch.length = 0;
    }
    this.recovered();
    this.opts.onCommitted(pruned.length > 0 ? [...traceIds, ...pruned] : traceIds);
  }

  /** An API write, after what is queued, in one transaction. A storage failure is thrown (the API answers with it). */
  run<T>(write: () => T): T {
    this.flush();
    try {
      const result = this.db.transaction(write)();
      this.parts.settle(true);
      return result;
    } catch (err) {
      this.parts.settle(false);
      throw err;
    }
  }

  rename(id: string, name: string): void {
    this.run(() => this.db.prepare("UPDATE traces SET name = ?, name_custom = 1 WHERE id = ?").run(name, id));
  }

  setSavedAs(id: string, file: string): void {
    this.run(() => this.db.prepare("UPDATE traces SET saved_as = ? WHERE id = ?").run(file, id));
  }

  /** Deletes the trace, its exchanges, and the parts only they referred to. */
  delete(id: string): boolean {
    return this.run(() => {
      const deleted = this.db.prepare("DELETE FROM traces WHERE id = ?").run(id).changes > 0;
      if (deleted) this.parts.sweep();
      return deleted;
    });
  }

  /** Writes a whole trace at once (imports), in one transaction: a bad file leaves nothing behind. */
  insertTrace(t: InsertTrace, records: ExchangeRecord[]): void {
    this.run(() => {
      this.db
        .prepare(
          `INSERT INTO traces (id, name, name_custom, name_rank, source, created_at, updated_at, grouped_by)
           VALUES (?, ?, 1, ?, 'imported', ?, ?, ?)`,
        )
        .run(t.id, t.name, CUSTOM_RANK, t.createdAt, t.updatedAt, t.groupedBy);
      this.insertBatch(records);
    });
  }

  close(): void {
    this.flush();
    this.db.close();
  }

  private failed(err: unknown, ids: number[]): void {
    if (!isSqliteError(err)) throw err;
    const h = this.health;
    h.notStored += ids.length;
    h.lastNotStored = [...h.lastNotStored, ...ids].slice(-LAST_NOT_STORED);
    h.lastNotStoredAt = Date.now();
    if (h.ok) h.since = Date.now();
    h.ok = false;
    h.error = `${err.code}: ${err.message}`;
    this.opts.onHealth({ ...h });
  }

  private recovered(): void {
    if (this.health.ok) return;
    Object.assign(this.health, { ok: true, error: null, since: null });
    this.opts.onHealth({ ...this.health });
  }
}

/** better-sqlite3's errors carry SQLite's code (SQLITE_FULL, SQLITE_READONLY, SQLITE_BUSY, SQLITE_IOERR_…). */
function isSqliteError(err: unknown): err is Error & { code: string } {
  const code = err instanceof Error ? (err as Error & { code?: unknown }).code : undefined;
  return typeof code === "string" && code.startsWith("SQLITE_");
}
