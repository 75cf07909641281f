/**
 * The disk fails, forwarding does not: a database on a 2 MB tmpfs that fills up (also while a new stored tool
 * list, recording/part-store.ts, is being written), database files made
 * read-only mid-run, and a database locked by another process while a stream passes. In each the taps
 * answer every request whole, /api/health says what is not stored, and recording comes back with the disk.
 * Needs root (mount, chattr) and an ext4 temp dir; this sandbox and the CI containers run as root.
 */
import { execFileSync } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import type { StorageHealth } from "@hopscope/shared/trace/api";
import {
  closeAll,
  eventually,
  getJson,
  request,
  startRecorder,
  startUpstream,
  traces,
  type TestRecorder,
  type Upstream,
} from "./helpers";
import { agentRequest, sendAgentRequest } from "./agent-requests";
import { ExchangeSchema } from "@hopscope/shared/trace/schemas";

let rec: TestRecorder | null = null;
let up: Upstream | null = null;
let mounted: string | null = null;
let root: string | null = null;
let immutable: string[] | null = null;
afterEach(async () => {
  if (immutable) execFileSync("chattr", ["-i", ...immutable]);
  await closeAll(rec, up);
  if (mounted) execFileSync("umount", ["-l", mounted]);
  if (root) await rm(root, { recursive: true, force: true });
  rec = up = mounted = root = immutable = null;
});

/** A tmpfs of `size` mounted in a fresh temp dir (the real thing: a small disk that fills up). */
async function smallDisk(size: string): Promise<string> {
  root = await mkdtemp(path.join(tmpdir(), "hopscope-disk-"));
  const dir = path.join(root, "disk");
  execFileSync("mkdir", ["-p", dir]);
  try {
    execFileSync("mount", ["-t", "tmpfs", "-o", `size=${size}`, "tmpfs", dir]);
  } catch (err) {
    throw new Error(`this test mounts a tmpfs and must run as root (mount said: ${(err as Error).message})`, {
      cause: err,
    });
  }
  mounted = dir;
  return dir;
}

const BODY = "x".repeat(20_000);

async function echoUpstream(): Promise<Upstream> {
  return startUpstream((_req, res, body) => {
    res.writeHead(200, { "Content-Type": "application/json" });
    res.end(JSON.stringify({ echo: body.length, pad: BODY }));
  });
}

async function storage(r: TestRecorder): Promise<StorageHealth> {
  const health = await getJson<{ storage: StorageHealth }>(`${r.url}/api/health`);
  return health.body.storage;
}

/** Sends `n` requests through the MCP tap and checks every one is answered whole. */
async function sendAll(r: TestRecorder, n: number): Promise<void> {
  const results = await Promise.all(
    Array.from({ length: n }, (_, i) =>
      request(`${r.taps.mcp.url}/mcp`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: `{"jsonrpc":"2.0","id":${i},"method":"tools/list"}`,
      }),
    ),
  );
  for (const res of results) {
    expect(res.status).toBe(200);
    expect((JSON.parse(res.body.toString()) as { pad: string }).pad).toBe(BODY);
  }
}

async function storedCount(r: TestRecorder): Promise<number> {
  const list = await getJson<{ traces: { exchangeCount: number }[] }>(`${r.url}/api/traces?limit=500`);
  return list.body.traces.reduce((n, t) => n + t.exchangeCount, 0);
}

/** Fills what is left of the file system (until ENOSPC). */
async function fill(dir: string): Promise<string> {
  const file = path.join(dir, "filler");
  const free = Number(execFileSync("df", ["--output=avail", "-B1", dir]).toString().split("\n")[1]);
  await writeFile(file, Buffer.alloc(Math.max(0, free)));
  return file;
}

describe("storage failures never stop forwarding", () => {
  it("a full disk: every request is still answered, the exchanges not stored are reported, and recording resumes when space is freed", async () => {
    const dir = await smallDisk("2m");
    up = await echoUpstream();
    rec = await startRecorder({ mcp: up.url }, { dbFile: path.join(dir, "hopscope.sqlite") });
    await sendAll(rec, 5);
    await eventually(async () => (await storedCount(rec!)) === 5, "the first 5 exchanges stored");
    expect((await storage(rec)).ok).toBe(true);

    const filler = await fill(dir);
    await sendAll(rec, 30);
    const failed = await eventually(async () => {
      const s = await storage(rec!);
      return !s.ok && s.notStored > 0 ? s : null;
    }, "the failure reported");
    expect(failed.error).toMatch(/SQLITE_FULL|disk is full/);
    expect(failed.since).toBeGreaterThan(0);
    expect(failed.lastNotStored.length).toBeGreaterThan(0);

    await rm(filler);
    await sendAll(rec, 5);
    const back = await eventually(async () => {
      const s = await storage(rec!);
      return s.ok ? s : null;
    }, "recording to resume");
    expect(back.error).toBeNull();
    // What was stored before, plus what came after the disk recovered; the rest is counted as not stored.
    const stored = await storedCount(rec);
    expect(stored).toBeGreaterThanOrEqual(10);
    expect(stored + back.notStored).toBe(40);
  });

  it("a full disk while a new tool list is written: the list is written again once there is space, and every body reads back as sent", async () => {
    const dir = await smallDisk("2m");
    up = await echoUpstream();
    rec = await startRecorder({ model: up.url }, { dbFile: path.join(dir, "hopscope.sqlite") });
    const first = agentRequest("claude-code/model-04");
    const other = agentRequest("codex/model-01");
    await sendAgentRequest(rec, first);
    await eventually(async () => (await storedCount(rec!)) === 1, "the first exchange stored");

    // The batch holding the new list's part fails at its commit: the part is rolled back with it.
    const filler = await fill(dir);
    await sendAgentRequest(rec, other);
    await eventually(async () => (await storage(rec!)).notStored === 1, "the failure reported");
    await rm(filler);
    await sendAgentRequest(rec, other);
    await eventually(async () => (await storage(rec!)).ok && (await storedCount(rec!)) === 2, "recording to resume");
    const bodies = await Promise.all(
      (await traces(rec)).flatMap((t) =>
        t.exchanges.map(async (x) => {
          const ex = ExchangeSchema.parse((await getJson(`${rec!.url}/api/exchanges/${x.id}`)).body);
          return Buffer.from(ex.requestBody!.data, ex.requestBody!.encoding);
        }),
      ),
    );
    expect(bodies.map((b) => b.toString()).sort()).toEqual([first.body.toString(), other.body.toString()].sort());
  });

  it("the database files made read-only mid-run (immutable): forwarding goes on, the failure is reported, and it recovers", async () => {
    // As root, chmod does not stop writes; the immutable flag does, even through the descriptors SQLite
    // already holds (a remount read-only is refused while they are open). The -shm index is mmap'd and stays.
    root = await mkdtemp(path.join(tmpdir(), "hopscope-readonly-"));
    const dbFile = path.join(root, "hopscope.sqlite");
    up = await echoUpstream();
    rec = await startRecorder({ mcp: up.url }, { dbFile });
    await sendAll(rec, 3);
    await eventually(async () => (await storedCount(rec!)) === 3, "the first exchanges stored");

    immutable = [dbFile, `${dbFile}-wal`];
    execFileSync("chattr", ["+i", ...immutable]);
    await sendAll(rec, 20);
    const failed = await eventually(async () => {
      const s = await storage(rec!);
      return !s.ok ? s : null;
    }, "the read-only failure reported");
    expect(failed.error).toMatch(/SQLITE_(READONLY|IOERR|CANTOPEN|PERM)/);

    execFileSync("chattr", ["-i", ...immutable]);
    immutable = null;
    await sendAll(rec, 3);
    await eventually(async () => (await storage(rec!)).ok, "recording to resume");
    const s = await storage(rec);
    expect((await storedCount(rec)) + s.notStored).toBe(26);
    expect(s.notStored).toBeGreaterThan(0);
  });

  it("a database locked by another process: a stream passing through the tap gets every chunk, and the batch is reported as not stored", async () => {
    root = await mkdtemp(path.join(tmpdir(), "hopscope-lock-"));
    const chunks = 30;
    up = await startUpstream((_req, res) => {
      res.writeHead(200, { "Content-Type": "application/x-ndjson" });
      let i = 0;
      const timer = setInterval(() => {
        res.write(`{"i":${i}}\n`);
        if (++i === chunks) {
          clearInterval(timer);
          res.end();
        }
      }, 25);
    });
    const dbFile = path.join(root, "hopscope.sqlite");
    rec = await startRecorder({ model: up.url }, { dbFile });
    const other = new Database(dbFile);
    other.exec("BEGIN EXCLUSIVE");
    try {
      const res = await request(`${rec.taps.model.url}/api/generate`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: "{}",
      });
      expect(res.status).toBe(200);
      const lines = res.body.toString().trim().split("\n");
      expect(lines).toEqual(Array.from({ length: chunks }, (_, i) => `{"i":${i}}`));
      const failed = await eventually(
        async () => {
          const s = await storage(rec!);
          return !s.ok ? s : null;
        },
        "the locked database reported",
        400,
      );
      expect(failed.error).toMatch(/SQLITE_BUSY|locked/);
    } finally {
      other.exec("COMMIT");
      other.close();
    }
    await request(`${rec.taps.model.url}/api/generate`, { method: "POST", body: "{}" });
    await eventually(
      async () => (await storage(rec!)).ok && (await storedCount(rec!)) === 1,
      "recording to resume after the lock",
    );
  });
});

describe("a recorder that falls behind", () => {
  it("forwards every request, records none beyond its queue bound (reported), and records again once it catches up", async () => {
    root = await mkdtemp(path.join(tmpdir(), "hopscope-behind-"));
    const dbFile = path.join(root, "hopscope.sqlite");
    up = await echoUpstream();
    // A tiny queue (60 events: about a dozen exchanges) with no backpressure before its cap, and a recording
    // thread held up by a locked database: what is past the cap is shed, and said so.
    rec = await startRecorder(
      { mcp: up.url },
      { dbFile },
      { deps: { queueLimits: { events: 60, bytes: 64 * 1024 * 1024, pauseAt: { events: 1e9, bytes: 1e12 } } } },
    );
    await sendAll(rec, 1);
    await eventually(async () => (await storedCount(rec!)) === 1, "the first exchange stored");
    const other = new Database(dbFile);
    other.exec("BEGIN EXCLUSIVE");
    try {
      await sendAll(rec, 5);
      // Let the recording thread start its (blocked) write of those five, then send more than the queue holds.
      await new Promise((r) => setTimeout(r, 200));
      for (let i = 0; i < 6; i++) await sendAll(rec, 10);
      const behind = await storage(rec);
      expect(behind.ok).toBe(false);
      expect(behind.error).toContain("behind");
      expect(behind.notStored).toBeGreaterThan(0);
    } finally {
      other.exec("COMMIT");
      other.close();
    }
    const r = rec;
    await eventually(async () => (await storage(r)).ok, "the recorder caught up", 400);
    await sendAll(r, 2);
    const s = await eventually(
      async () => {
        const h = await storage(r);
        return (await storedCount(r)) + h.notStored === 68 ? h : null;
      },
      "every exchange stored or counted as not stored",
      400,
    );
    expect(s.lastNotStored.length).toBeGreaterThan(0);
    expect(s.lastNotStoredAt).toBeGreaterThan(0);
    // Storing works again, but what was shed stays unstored: the recorder is not healthy until restarted.
    expect(s.ok).toBe(true);
    expect((await getJson<{ ok: boolean }>(`${r.url}/api/health`)).body.ok).toBe(false);
  });
});
