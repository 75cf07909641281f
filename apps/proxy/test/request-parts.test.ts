/**
 * A big request body's tool list is stored once per distinct list (recording/part-store.ts): agents' recorded
 * requests sent through the model tap come back through the API byte for byte, the parts table holds one row
 * per distinct list, retention and deletes leave no part behind that nothing refers to, a database written
 * before parts existed opens and reads the same, and export → import round-trips. Counts and bytes, never
 * timings.
 */
import { createHash } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { ExchangeSchema, TraceSchema, type Body } from "@hopscope/shared/trace/schemas";
import { TraceListSchema } from "@hopscope/shared/trace/api";
import { closeAll, getJson, request, startRecorder, startUpstream, type TestRecorder, type Upstream } from "./helpers";
import { OLD_LAYOUT, oldExchangeRow } from "./old-layout";
import { agentRequest, sendAgentRequest, type AgentRequest } from "./agent-requests";

/** The same request with its body's JSON changed (a different tool list, or tools that are no list). */
function edited(req: AgentRequest, edit: (body: Record<string, unknown>) => void): AgentRequest {
  const body = JSON.parse(req.body.toString()) as Record<string, unknown>;
  edit(body);
  return { ...req, body: Buffer.from(JSON.stringify(body)) };
}

/** The same request in a session of its own (Claude Code's session header groups it: its own trace). */
function inSession(req: AgentRequest, session: string): AgentRequest {
  return { ...req, headers: { ...req.headers, "x-claude-code-session-id": session } };
}

const sha = (b: Buffer) => createHash("sha256").update(b).digest("hex");
const bytesOf = (b: Body) => Buffer.from(b.data, b.encoding);

const claudeBig = agentRequest("claude-code/model-04");
const claudeBigNext = agentRequest("claude-code/model-05");
const claudeSmall = agentRequest("claude-code/model-01");
const codex = agentRequest("codex/model-01");
const toolsOf = (r: AgentRequest) => (JSON.parse(r.body.toString()) as { tools: unknown[] }).tools;
/** Tools of a few hundred bytes in a body still over the size kept as bytes. */
const fewTools = edited(claudeBig, (b) => (b.tools = toolsOf(claudeBig).slice(3, 5)));
/** Tools that are one big string, not a list. */
const toolsText = edited(claudeBig, (b) => (b.tools = JSON.stringify(toolsOf(claudeBig))));

let rec: TestRecorder | null = null;
let up: Upstream | null = null;
const dirs: string[] = [];
afterEach(async () => {
  await closeAll(rec, up);
  rec = null;
  up = null;
  for (const d of dirs.splice(0)) await rm(d, { recursive: true, force: true });
});

async function start(overrides: { maxTraces?: number } = {}, dir?: string): Promise<TestRecorder> {
  up = await startUpstream((_req, res) => {
    res.writeHead(200, { "content-type": "application/json" });
    res.end('{"id":"msg_1","type":"message","role":"assistant","content":[{"type":"text","text":"ok"}]}');
  });
  rec = await startRecorder({ model: up.url }, overrides, dir ? { dir } : {});
  return rec;
}

/** Every stored exchange's request body as the API serves it, read after everything sent is committed. */
async function storedRequests(r: TestRecorder): Promise<Buffer[]> {
  const list = TraceListSchema.parse((await getJson(`${r.url}/api/traces?limit=500`)).body);
  const out: Buffer[] = [];
  for (const t of list.traces) {
    const trace = TraceSchema.parse((await getJson(`${r.url}/api/traces/${t.id}`)).body);
    for (const x of trace.exchanges) {
      const ex = ExchangeSchema.parse((await getJson(`${r.url}/api/exchanges/${x.id}`)).body);
      if (ex.requestBody) out.push(bytesOf(ex.requestBody));
    }
  }
  return out;
}

/** A query on the recorder's database, on a connection of the test's own (WAL: it sees every commit). */
function query<T>(r: TestRecorder, sql: string): T[] {
  const db = new Database(r.config.dbFile, { readonly: true, fileMustExist: true });
  try {
    return db.prepare(sql).all() as T[];
  } finally {
    db.close();
  }
}

const partCount = (r: TestRecorder) => query<{ n: number }>(r, "SELECT COUNT(*) AS n FROM parts")[0]!.n;
const orphanCount = (r: TestRecorder) =>
  query<{ n: number }>(
    r,
    "SELECT COUNT(*) AS n FROM parts WHERE id NOT IN (SELECT request_part FROM exchanges WHERE request_part IS NOT NULL)",
  )[0]!.n;

function expectSameBodies(stored: Buffer[], sent: AgentRequest[]): void {
  expect(stored.map(sha).sort()).toEqual(sent.map((s) => sha(s.body)).sort());
}

describe("request parts: a big body's tool list stored once", () => {
  it("stores each distinct list once and reads every body back byte for byte", async () => {
    const r = await start();
    const sent = [claudeBig, claudeBigNext, claudeBig, claudeSmall, codex, claudeBigNext, fewTools, toolsText, codex];
    for (const req of sent) await sendAgentRequest(r, req);
    expectSameBodies(await storedRequests(r), sent);
    // Claude Code's two lists (before and after its MCP tools arrived) and codex's; the small list and the
    // list that is a string stay in their bodies.
    expect(partCount(r)).toBe(3);
    const withPart = query<{ n: number }>(r, "SELECT COUNT(*) AS n FROM exchanges WHERE request_part IS NOT NULL");
    expect(withPart[0]!.n).toBe(7);
    const parts = query<{ size: number; hash: string; bytes: Buffer }>(r, "SELECT size, hash, bytes FROM parts");
    const lists = [claudeBig, claudeSmall, codex].map((q) => sha(Buffer.from(JSON.stringify(toolsOf(q)))));
    // Each part is a list's own bytes, its hash theirs (the fixtures' lists are compact JSON).
    expect(parts.map((p) => sha(p.bytes)).sort()).toEqual([...lists].sort());
    expect(parts.every((p) => p.size === p.bytes.length && p.hash === sha(p.bytes))).toBe(true);
  });

  it("writes a fraction of the bytes for requests that share their tools", async () => {
    const r = await start();
    const n = 12;
    for (let i = 0; i < n; i++) await sendAgentRequest(r, claudeBig);
    expectSameBodies(await storedRequests(r), Array<AgentRequest>(n).fill(claudeBig));
    const [row] = query<{ rows: number; bodies: number; parts: number }>(
      r,
      `SELECT COUNT(*) AS rows, SUM(length(request_body)) AS bodies, (SELECT SUM(size) FROM parts) AS parts
         FROM exchanges`,
    );
    expect(row!.rows).toBe(n);
    const listBytes = Buffer.byteLength(JSON.stringify(toolsOf(claudeBig)));
    expect(row!.parts).toBe(listBytes);
    expect(row!.bodies).toBe(n * (claudeBig.body.length - listBytes));
    expect(row!.bodies + row!.parts).toBeLessThan((n * claudeBig.body.length) / 3);
  });

  it("deletes the parts nothing refers to once retention or a delete removed their exchanges", async () => {
    const r = await start({ maxTraces: 2 });
    await sendAgentRequest(r, inSession(claudeSmall, "aaaaaaaa-0000-4000-8000-000000000001"));
    await sendAgentRequest(r, inSession(claudeBig, "aaaaaaaa-0000-4000-8000-000000000002"));
    await sendAgentRequest(r, inSession(claudeBig, "aaaaaaaa-0000-4000-8000-000000000002"));
    expect(await storedRequests(r)).toHaveLength(3);
    expect(partCount(r)).toBe(2);
    // Two more traces: the first two are pruned, and with them the small list's part; the big list is still used.
    await sendAgentRequest(r, inSession(claudeBigNext, "aaaaaaaa-0000-4000-8000-000000000003"));
    await sendAgentRequest(r, inSession(codex, "aaaaaaaa-0000-4000-8000-000000000004"));
    expectSameBodies(await storedRequests(r), [claudeBigNext, codex]);
    expect(partCount(r)).toBe(2);
    expect(orphanCount(r)).toBe(0);
    // The same list sent again after its part was deleted is written anew.
    await sendAgentRequest(r, inSession(claudeSmall, "aaaaaaaa-0000-4000-8000-000000000005"));
    expectSameBodies(await storedRequests(r), [codex, claudeSmall]);
    expect(partCount(r)).toBe(2);
    const list = TraceListSchema.parse((await getJson(`${r.url}/api/traces?limit=10`)).body);
    for (const t of list.traces)
      expect((await request(`${r.url}/api/traces/${t.id}`, { method: "DELETE" })).status).toBe(204);
    expect(partCount(r)).toBe(0);
  });

  it("round-trips export and import: the imported trace's bodies are the bytes sent", async () => {
    const r = await start();
    const sent = [claudeBig, claudeBigNext, claudeBig];
    for (const req of sent) await sendAgentRequest(r, req);
    const [t] = TraceListSchema.parse((await getJson(`${r.url}/api/traces?limit=10`)).body).traces;
    for (const format of ["hopscope", "har"]) {
      const file = await (await fetch(`${r.url}/api/traces/${t!.id}/export?format=${format}`)).text();
      const imported = await getJson<{ id: string }>(`${r.url}/api/import`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: file,
      });
      expect(imported.status).toBe(200);
      const trace = TraceSchema.parse((await getJson(`${r.url}/api/traces/${imported.body.id}`)).body);
      const bodies = await Promise.all(
        trace.exchanges.map(async (x) => {
          const ex = ExchangeSchema.parse((await getJson(`${r.url}/api/exchanges/${x.id}`)).body);
          return bytesOf(ex.requestBody!);
        }),
      );
      expectSameBodies(bodies, sent);
    }
  });

  it("a restarted recorder finds a stored list by its hash and bytes instead of writing it again", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "hopscope-restart-"));
    dirs.push(dir);
    const first = await start({}, dir);
    await sendAgentRequest(first, claudeBig);
    expect(await storedRequests(first)).toHaveLength(1);
    await first.stop();
    await up?.close();

    const r = await start({}, dir);
    await sendAgentRequest(r, claudeBigNext);
    await sendAgentRequest(r, codex);
    expectSameBodies(await storedRequests(r), [claudeBig, claudeBigNext, codex]);
    expect(partCount(r)).toBe(2);
  });

  it("opens a database written before parts existed: its rows read the same and new ones get parts", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "hopscope-old-layout-"));
    dirs.push(dir);
    const old = new Database(path.join(dir, "hopscope.sqlite"));
    old.exec(OLD_LAYOUT);
    old.prepare("INSERT INTO traces VALUES ('old-trace', 'old', 0, 0, 'live', 1, 2, 'single', NULL)").run();
    old.prepare(oldExchangeRow.sql).run(...oldExchangeRow.params(1, "old-trace", claudeBig.body));
    old.close();

    const r = await start({}, dir);
    const got = await getJson(`${r.url}/api/exchanges/1`);
    expect(got.status, JSON.stringify(got.body)).toBe(200);
    const ex = ExchangeSchema.parse(got.body);
    expect(sha(bytesOf(ex.requestBody!))).toBe(sha(claudeBig.body));
    await sendAgentRequest(r, claudeBig);
    expectSameBodies(await storedRequests(r), [claudeBig, claudeBig]);
    expect(partCount(r)).toBe(1);
    const columns = query<{ name: string }>(r, "SELECT name FROM pragma_table_info('exchanges')").map((c) => c.name);
    expect(columns).toEqual(expect.arrayContaining(["request_part", "request_part_at"]));
  });
});
