/**
 * The file-change recorder against a real file in a temp dir: every change is recorded once with its
 * time, its before/after and the cause given at the moment it was noticed; a deleted file, a directory
 * in its place, an oversized or binary file are recorded as such and watching goes on; the reset
 * replaces the file atomically and is refused while a tool call runs; the reset route refuses a wrong
 * Content-Type, a foreign Origin and a non-loopback Host.
 */
import { mkdir, mkdtemp, rm, rmdir, unlink, writeFile, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  NotesChangesSchema,
  NotesResetResultSchema,
  NotesStatusSchema,
  type NotesCause,
  type NotesChange,
} from "@hopscope/shared/trace/notes-file";
import Database from "better-sqlite3";
import { NotesTable } from "../src/main/notes/notes-table";
import { NotesWatcher } from "../src/main/notes/notes-watcher";
import { resetNotes, ResetRefused } from "../src/main/notes/notes-reset";
import { causeAmong, causeAt, causeInStore, causeWindow } from "../src/main/notes/cause-now";
import { TraceReader } from "../src/recording/trace-reader";
import { openDb } from "../src/recording/db";
import { silentLogger } from "../src/logger";
import type { AnyEvent, FeedEvent } from "../src/link/frames";

/** What an announced event says, however it was announced. */
function feedEventOf(e: AnyEvent): FeedEvent {
  if ("park" in e) throw new Error("the notes watcher announces on the main thread: nothing of it is parked");
  if ("json" in e) return JSON.parse(e.json()) as FeedEvent;
  return e;
}
import { eventually, startRecorder, type TestRecorder } from "./helpers";

const CALL: NotesCause = { kind: "tool-call", traceId: "t1", exchangeId: 5, toolName: "write" };

describe("the notes file-change recorder", () => {
  let dir: string;
  let file: string;
  let db: Database.Database;
  let table: NotesTable;
  let events: NotesChange[];
  let cause: NotesCause;
  let watcher: NotesWatcher;

  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), "hopscope-notes-"));
    file = path.join(dir, "db");
    await writeFile(file, "call the dentist\n");
    db = new Database(path.join(dir, "rec.notes.sqlite"));
    table = new NotesTable(db);
    events = [];
    cause = { kind: "none" };
    const announce = (e: AnyEvent) => {
      const ev = feedEventOf(e);
      if (ev.type === "notes.changed") events.push(ev.change);
    };
    watcher = new NotesWatcher({
      file,
      display: "data/db",
      maxBytes: 64,
      table,
      announce,
      causeAt: async () => cause,
      logger: silentLogger,
      pollMs: 50,
    });
    await watcher.start();
  });
  afterEach(async () => {
    watcher.close();
    db.close();
    await rm(dir, { recursive: true, force: true });
  });

  it("records a change once, with before and after and the tool call running then", async () => {
    cause = CALL;
    await writeFile(file, "buy milk\n");
    await eventually(async () => events.length > 0, "a change event");
    await watcher.check(); // nothing new: not recorded twice
    expect(events).toHaveLength(1);
    const [c] = events;
    expect(c).toMatchObject({ event: "changed", file: "data/db", cause: CALL, traceId: "t1", size: 9 });
    expect(c?.before).toMatchObject({ encoding: "utf8", data: "call the dentist\n" });
    expect(c?.after).toMatchObject({ encoding: "utf8", data: "buy milk\n" });
    expect(table.forTrace("t1", 0, 0).map((x) => x.id)).toEqual([c?.id]);
  });

  it("a change with no tool call running is recorded as uncaused, and found in a trace's time span", async () => {
    const t0 = Date.now();
    await writeFile(file, "edited by hand\n");
    const c = await eventually(async () => events[0], "a change event");
    expect(c.cause).toEqual({ kind: "none" });
    expect(c.traceId).toBeNull();
    expect(table.forTrace("other", t0 - 1, Date.now() + 1)).toHaveLength(1);
    expect(table.forTrace("other", 0, t0 - 1)).toHaveLength(0);
  });

  it("records deletion, a directory in its place, an oversized file and binary content, and keeps watching", async () => {
    await unlink(file);
    await eventually(async () => events.at(-1)?.event === "deleted", "deleted");
    expect(events.at(-1)?.after).toBeNull();
    await mkdir(file);
    await eventually(async () => events.at(-1)?.event === "not-a-file", "not-a-file");
    expect(events.at(-1)?.detail).toContain("directory");
    await rmdir(file);
    await writeFile(file, "x".repeat(100));
    await eventually(async () => events.at(-1)?.event === "too-large", "too-large");
    expect(events.at(-1)).toMatchObject({ size: 100, after: null });
    await writeFile(file, Buffer.from([0xff, 0xfe, 0x00, 0x41]));
    await eventually(async () => events.at(-1)?.event === "changed", "binary change");
    expect(events.at(-1)?.after).toMatchObject({
      encoding: "base64",
      data: Buffer.from([0xff, 0xfe, 0x00, 0x41]).toString("base64"),
      size: 4,
    });
  });

  it("reset replaces the file and is recorded as a reset; refused while a tool call runs", async () => {
    await expect(resetNotes({ file, set: "empty", watcher, busy: async () => true })).rejects.toBeInstanceOf(
      ResetRefused,
    );
    expect(await readFile(file, "utf8")).toBe("call the dentist\n");
    const change = await resetNotes({ file, set: "empty", watcher, busy: async () => false });
    expect(await readFile(file, "utf8")).toBe("");
    expect(change).toMatchObject({ event: "changed", cause: { kind: "reset", set: "empty" }, traceId: null });
    expect(await resetNotes({ file, set: "empty", watcher, busy: async () => false })).toBeNull(); // already empty
    await new Promise((r) => setTimeout(r, 150));
    expect(events.filter((e) => e.cause.kind === "reset")).toHaveLength(1);
    expect(events.filter((e) => e.cause.kind === "none")).toHaveLength(0);
  });
});

describe("the notes file polled (a folder that cannot be watched)", () => {
  it("finds each change by polling, once", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "hopscope-notes-poll-"));
    const file = path.join(dir, "db");
    await writeFile(file, "");
    const db = new Database(path.join(dir, "rec.notes.sqlite"));
    const seen: NotesChange[] = [];
    const watcher = new NotesWatcher({
      file,
      display: "data/db",
      maxBytes: 1024,
      table: new NotesTable(db),
      logger: silentLogger,
      pollMs: 30,
      watchFolder: false,
      causeAt: async () => CALL,
      announce: (e) => {
        const ev = feedEventOf(e);
        if (ev.type === "notes.changed") seen.push(ev.change);
      },
    });
    try {
      await watcher.start();
      await writeFile(file, "buy milk\n");
      await eventually(async () => seen.length === 1, "a polled change");
      await new Promise((r) => setTimeout(r, 120));
      expect(seen.map((c) => [c.event, c.after?.data, c.cause.kind])).toEqual([["changed", "buy milk\n", "tool-call"]]);
    } finally {
      watcher.close();
      db.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe("which stored tool call caused a change (the call ended before the change was seen)", () => {
  it("is a mutating tools/call that began before and ended after the moment the change was seen", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "hopscope-notes-cause-"));
    const db = openDb(path.join(dir, "rec.sqlite"));
    try {
      db.prepare(
        "INSERT INTO traces (id, name, source, created_at, updated_at, grouped_by) VALUES ('t', 'q', 'live', 0, 0, 'traceparent')",
      ).run();
      const put = db.prepare(
        "INSERT INTO exchanges (id, trace_id, seq, tap, method, url, upstream, state, t_start, t_end, request_headers, response_headers, chunks, classification) VALUES (?, 't', ?, 'mcp', 'POST', '/mcp', 'u', 'complete', ?, ?, '[]', '[]', '[]', ?)",
      );
      const mcp = (method: string, toolName?: string) =>
        JSON.stringify({ kind: "mcp", method, toolName, outcome: "ok" });
      put.run(1, 1, 100, 110, mcp("tools/call", "append"));
      put.run(2, 2, 200, 207, mcp("tools/call", "write"));
      put.run(3, 3, 300, 400, mcp("tools/call", "read"));
      const reader = new TraceReader(db);
      const inStore = (at: number) => causeInStore(reader.mcpExchangesIn(causeWindow(at)));
      // Seen at 205 (the response left at 207): the write, although it is no longer in flight.
      expect(inStore(205)).toEqual({ kind: "tool-call", traceId: "t", exchangeId: 2, toolName: "write" });
      // Seen after the write had answered (the folder watch missed it and the poll found it): still the write's.
      expect(inStore(240)).toEqual({ kind: "tool-call", traceId: "t", exchangeId: 2, toolName: "write" });
      // Seen long after every call ended, or during a read only: nobody's.
      expect(inStore(1000)).toEqual({ kind: "none" });
      expect(inStore(350)).toEqual({ kind: "none" });
      // Decided a moment later, in flight first, then the store.
      expect(
        await causeAt({ inFlight: async () => [], stored: async (w) => reader.mcpExchangesIn(w), settleMs: 1 }, 205),
      ).toMatchObject({ exchangeId: 2 });
    } finally {
      db.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe("which tool call caused a change", () => {
  const x = (id: number, start: number, method: string, toolName?: string) =>
    ({
      id,
      traceId: `t${id}`,
      tap: "mcp",
      timings: { start },
      classification: { kind: "mcp", method, toolName, outcome: "pending" },
    }) as never;
  it("is the latest mutating tools/call in flight; a read alone causes nothing", () => {
    expect(
      causeAmong([x(1, 10, "tools/call", "append"), x(2, 20, "tools/call", "write"), x(3, 30, "tools/list")]),
    ).toEqual({ kind: "tool-call", traceId: "t2", exchangeId: 2, toolName: "write" });
    expect(causeAmong([x(1, 10, "tools/call", "read")])).toEqual({ kind: "none" });
  });
});

describe("the notes routes", () => {
  let rec: TestRecorder;
  let file: string;
  beforeEach(async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "hopscope-notes-api-"));
    file = path.join(dir, "db");
    await writeFile(file, "buy milk\n");
    rec = await startRecorder({}, { notes: { file, explicit: true, maxBytes: 1024 } }, { dir });
  });
  afterEach(async () => {
    await rec.close();
    await rm(path.dirname(file), { recursive: true, force: true });
  });

  const post = (headers: Record<string, string>, body = JSON.stringify({ set: "dentist" })) =>
    fetch(`${rec.url}/api/notes/reset`, { method: "POST", headers, body });

  it("resets to a named set, and shows the file and its changes", async () => {
    const res = await post({ "content-type": "application/json" });
    expect(res.status).toBe(200);
    const r = NotesResetResultSchema.parse(await res.json());
    expect(r.change?.after?.data).toBe("call the dentist\n");
    expect(await readFile(file, "utf8")).toBe("call the dentist\n");
    const status = NotesStatusSchema.parse(await (await fetch(`${rec.url}/api/notes`)).json());
    expect(status.watch).toMatchObject({ state: "watching" });
    expect(status.current?.data).toBe("call the dentist\n");
    expect(status.changes.at(-1)?.cause).toEqual({ kind: "reset", set: "dentist" });
    // A reset belongs to no trace's tool calls: only a trace whose span holds it lists it.
    const changes = NotesChangesSchema.parse(
      await (await fetch(`${rec.url}/api/notes/changes?traceId=nope&from=0&to=1`)).json(),
    );
    expect(changes.changes).toEqual([]);
  });

  it("refuses a wrong Content-Type, a foreign Origin, a non-loopback Host and an unknown set, changing nothing", async () => {
    const wrongType = await post({ "content-type": "text/plain" });
    expect(wrongType.status).toBe(415);
    expect((await wrongType.json()) as { error: string }).toMatchObject({
      error: expect.stringContaining("application/json"),
    });
    expect((await post({ "content-type": "application/json", origin: "https://evil.example" })).status).toBe(403);
    const host = await new Promise<number>((resolve, reject) => {
      const u = new URL(`${rec.url}/api/notes/reset`);
      import("node:http").then(({ request }) => {
        const req = request(
          {
            host: u.hostname,
            port: u.port,
            path: u.pathname,
            method: "POST",
            headers: { host: "attacker.example", "content-type": "application/json" },
          },
          (res) => {
            res.resume();
            resolve(res.statusCode ?? 0);
          },
        );
        req.on("error", reject);
        req.end("{}");
      }, reject);
    });
    expect(host).toBe(403);
    const unknown = await post({ "content-type": "application/json" }, JSON.stringify({ set: "nope" }));
    expect(unknown.status).toBe(400);
    expect(((await unknown.json()) as { error: string }).error).toContain("use one of empty, dentist");
    expect(await readFile(file, "utf8")).toBe("buy milk\n");
  });
});

describe("a notes file the recorder cannot see", () => {
  it("NOTES_FILE=off: not watched, and said so", async () => {
    const rec = await startRecorder({}, { notes: { file: null, explicit: true, maxBytes: 1024 } });
    try {
      const status = NotesStatusSchema.parse(await (await fetch(`${rec.url}/api/notes`)).json());
      expect(status.watch).toEqual({ state: "off" });
      const res = await fetch(`${rec.url}/api/notes/reset`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: "{}",
      });
      expect(res.status).toBe(409);
      expect(((await res.json()) as { error: string }).error).toContain("NOTES_FILE=off");
    } finally {
      await rec.close();
    }
  });

  it("an MCP server on another machine: the lane says so, and reset is refused with how to fix it", async () => {
    const rec = await startRecorder({ mcp: "http://notes.example:8080" });
    try {
      const status = NotesStatusSchema.parse(await (await fetch(`${rec.url}/api/notes`)).json());
      expect(status.watch).toEqual({ state: "remote", upstream: "http://notes.example:8080" });
      expect(status.current).toBeNull();
      const res = await fetch(`${rec.url}/api/notes/reset`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: "{}",
      });
      expect(res.status).toBe(409);
      expect(((await res.json()) as { error: string }).error).toContain("set NOTES_FILE");
    } finally {
      await rec.close();
    }
  });
});
