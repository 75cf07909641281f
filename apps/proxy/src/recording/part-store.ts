/**
 * Parts: a big live request body's tool list, stored once per distinct list. A coding agent resends the
 * same tool definitions, byte for byte, with every model request of a session (most of each request), so
 * an exchange row keeps its body with the list cut out, the part's id and where the list goes back
 * (rows.ts puts it back before anything reads the body). Identity is the bytes, never a hash alone: a
 * recent part is matched by comparing bytes in memory, an older one by looking up its hash and comparing
 * the bytes of each candidate.
 */
import { createHash } from "node:crypto";
import type { Statement } from "better-sqlite3";
import type { Db } from "./db";
import type { ExchangeRecord } from "../link/exchange-record";

/** Smaller tool lists stay in their body: a part of their own would save less than it costs. */
export const PART_FROM = 4 * 1024;
/** Parts matched in memory before the database is asked: one per agent session running at once. */
const RECENT_PARTS = 8;

/** A request body as its row keeps it: less the part, which goes back at `at`. */
export interface CutBody {
  data: Buffer;
  part: number;
  at: number;
}

interface KnownPart {
  id: number;
  bytes: Buffer;
}

/**
 * Parts no exchange refers to any more (after retention or a delete), removed. The partial index on
 * exchanges.request_part answers each NOT EXISTS.
 */
const SWEEP_SQL = `DELETE FROM parts WHERE NOT EXISTS (SELECT 1 FROM exchanges e WHERE e.request_part = parts.id)
  RETURNING id`;

export class PartStore {
  /** Parts known to be stored, most recently used first. */
  private recent: KnownPart[] = [];
  /** Parts written by the transaction under way: known to be stored only once it commits. */
  private added: KnownPart[] = [];
  private readonly byHash: Statement;
  private readonly insert: Statement;
  private readonly sweepStmt: Statement;

  constructor(db: Db) {
    this.byHash = db.prepare("SELECT id, bytes FROM parts WHERE hash = ?");
    this.insert = db.prepare("INSERT INTO parts (hash, size, bytes) VALUES (?, ?, ?)");
    this.sweepStmt = db.prepare(SWEEP_SQL);
  }

  /**
   * The record's request body as its row keeps it, its tool list written as a part if it is new; null when
   * the body is stored whole (no list, a small one, a body kept as text). Runs inside the batch's transaction.
   */
  cut(r: ExchangeRecord): CutBody | null {
    const range = r.requestTools;
    const data = r.requestBody?.data;
    if (!range || data === undefined || typeof data === "string") return null;
    if (range.end - range.start < PART_FROM || range.end > data.length) return null;
    return {
      data: Buffer.concat([data.subarray(0, range.start), data.subarray(range.end)]),
      part: this.idOf(data.subarray(range.start, range.end)),
      at: range.start,
    };
  }

  /** After the transaction: what it wrote is stored (true) or was rolled back (false). */
  settle(committed: boolean): void {
    if (committed) for (const p of this.added) this.remember(p);
    this.added = [];
  }

  /** Deletes the parts nothing refers to any more (inside the transaction that deleted exchanges). */
  sweep(): void {
    const gone = new Set((this.sweepStmt.all() as { id: number }[]).map((r) => r.id));
    if (gone.size === 0) return;
    this.recent = this.recent.filter((p) => !gone.has(p.id));
    this.added = this.added.filter((p) => !gone.has(p.id));
  }

  private idOf(bytes: Buffer): number {
    const recent = this.recent.findIndex((p) => p.bytes.equals(bytes));
    if (recent >= 0) {
      const [hit] = this.recent.splice(recent, 1) as [KnownPart];
      this.recent.unshift(hit);
      return hit.id;
    }
    const added = this.added.find((p) => p.bytes.equals(bytes));
    if (added) return added.id;
    const hash = createHash("sha256").update(bytes).digest("hex");
    for (const row of this.byHash.all(hash) as KnownPart[]) {
      if (!bytes.equals(row.bytes)) continue;
      this.remember(row);
      return row.id;
    }
    // A copy: the body's bytes are a view of the batch they arrived in, which the cache must not keep alive.
    const part = { id: 0, bytes: Buffer.from(bytes) };
    part.id = Number(this.insert.run(hash, part.bytes.length, part.bytes).lastInsertRowid);
    this.added.push(part);
    return part.id;
  }

  private remember(p: KnownPart): void {
    this.recent.unshift(p);
    if (this.recent.length > RECENT_PARTS) this.recent.pop();
  }
}
