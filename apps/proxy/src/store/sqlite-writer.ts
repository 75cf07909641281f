/**
 * Writes batches of recorded exchanges on a worker thread (sqlite-writer.worker.mjs) with its own
 * connection. Profiles showed the flush (B-tree inserts, WAL writes, checkpoints with their fsync) as
 * the largest piece of recording on the taps' event loop; on its own thread it runs beside forwarding.
 *
 * `post` hands a batch over without waiting. `wait` blocks until every posted batch is committed
 * (Atomics.wait on a shared counter): reads and the main connection's own writes call it first, so they
 * see everything that completed, exactly as when the flush was synchronous.
 */
import { Worker } from "node:worker_threads";
import { INSERT_EXCHANGE_SQL, PRUNE_TRACES_SQL, UPSERT_TRACE_SQL, type RowParams } from "./write-sql";

/** A commit slower than this while a read waits means the writer is stuck; the read fails loudly. */
const WAIT_LIMIT_MS = 30_000;

export class SqliteWriter {
  private readonly worker: Worker;
  private readonly done: Int32Array;
  private posted = 0;
  private readonly pending = new Map<number, string[]>();
  private closing: Promise<void> | null = null;

  constructor(
    file: string,
    /** Called once a batch is committed, with the traces it touched (and those retention deleted). */
    private readonly onCommitted: (traceIds: string[]) => void,
    /** Keep at most this many traces (0: all). */
    maxTraces = 0,
  ) {
    const shared = new SharedArrayBuffer(8);
    this.done = new Int32Array(shared);
    this.worker = new Worker(new URL("./sqlite-writer.worker.mjs", import.meta.url), {
      workerData: { file, upsertTraceSql: UPSERT_TRACE_SQL, insertExchangeSql: INSERT_EXCHANGE_SQL, pruneTracesSql: PRUNE_TRACES_SQL, maxTraces, shared },
      // The worker is plain JavaScript: no TypeScript loader needed there.
      execArgv: [],
    });
    this.worker.on("message", (msg: { batch: number; error?: string; pruned?: string[] }) => {
      const traceIds = this.pending.get(msg.batch) ?? [];
      this.pending.delete(msg.batch);
      if (msg.error) throw new Error(`recording to SQLite failed; exchanges of this batch are lost: ${msg.error}`);
      // Pruned traces are announced like touched ones: the feed finds them gone and sends trace.deleted.
      this.onCommitted(msg.pruned && msg.pruned.length > 0 ? [...traceIds, ...msg.pruned] : traceIds);
    });
    this.worker.on("error", (err) => {
      throw new Error(`the SQLite writer thread failed: ${err.message}`, { cause: err });
    });
  }

  post(rows: RowParams[], traceIds: string[]): void {
    const batch = ++this.posted;
    this.pending.set(batch, traceIds);
    this.worker.postMessage({ batch, rows });
  }

  /** Blocks until everything posted is committed (returns at once when it already is). */
  wait(): void {
    const deadline = Date.now() + WAIT_LIMIT_MS;
    for (;;) {
      const committed = Atomics.load(this.done, 0);
      if (committed >= this.posted) break;
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`the SQLite writer has not committed batch ${this.posted} after ${WAIT_LIMIT_MS} ms`);
      Atomics.wait(this.done, 0, committed, left);
    }
    if (Atomics.load(this.done, 1) !== 0) throw new Error("recording to SQLite failed on the writer thread (see the error logged with it)");
  }

  /** Waits for the last commit, then closes the writer's connection and ends its thread. */
  close(): Promise<void> {
    this.closing ??= new Promise<void>((resolve) => {
      this.wait();
      this.worker.once("exit", () => resolve());
      this.worker.postMessage({ close: true });
    });
    return this.closing;
  }
}
