/**
 * The audience port faces a room's network: viewers read only what the presenter showed, checked before
 * anything is loaded (an unshown exchange is refused as a missing one is), the notes changes of a shown
 * trace only (no hand edit from before it), idle and slow sockets closed within seconds and their number
 * capped, wrong join codes limited per address and counted for the presenter. Real sockets, real recorder.
 */
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { connect, type Socket } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AudienceStatusSchema } from "@hopscope/shared/trace/audience";
import { startRecorder, type TestRecorder } from "./helpers";

const ARTICLE = new URL("../../../traces/buy-milk.hopscope.json", import.meta.url);
const LIMITS = { maxSockets: 12, idleMs: 600, requestMs: 2_000 };

let dir: string;
let recorder: TestRecorder;
let joinUrl: string;
let origin: string;

async function status() {
  return AudienceStatusSchema.parse(await (await fetch(`${recorder.url}/api/audience`)).json());
}

async function importArticle(): Promise<{ id: string; exchanges: { id: number; classification: { kind: string } }[] }> {
  const res = await fetch(`${recorder.url}/api/import`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: await readFile(ARTICLE, "utf8"),
  });
  const { id } = (await res.json()) as { id: string };
  return (await (await fetch(`${recorder.url}/api/traces/${id}`)).json()) as {
    id: string;
    exchanges: { id: number; classification: { kind: string } }[];
  };
}

async function show(traceId: string): Promise<void> {
  const res = await fetch(`${recorder.url}/api/audience/position`, {
    method: "PUT",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ traceId, hop: 1, present: false, replay: null }),
  });
  expect(res.status).toBe(204);
}

function openSocket(): Promise<Socket> {
  const url = new URL(origin);
  return new Promise((resolve, reject) => {
    const s = connect(Number(url.port), url.hostname, () => resolve(s));
    s.once("error", reject);
  });
}

const closed = (s: Socket) => s.destroyed || s.readableEnded || s.closed;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "hopscope-audience-guard-"));
  recorder = await startRecorder(
    {},
    {
      audience: { host: "127.0.0.1", port: 0, limits: LIMITS },
      notes: { file: path.join(dir, "db"), explicit: true, maxBytes: 1024 * 1024 },
    },
    { dir },
  );
  const st = await status();
  if (st.state !== "open") throw new Error("the audience view did not open");
  joinUrl = st.joinUrl;
  origin = new URL(joinUrl).origin;
});
afterAll(async () => {
  await recorder.close();
  await rm(dir, { recursive: true, force: true });
});

describe("the audience port", () => {
  it("answers an unshown exchange as a missing one, and shows a shown one", async () => {
    const shown = await importArticle();
    const hidden = await importArticle();
    await show(shown.id);
    const get = (id: number) => fetch(`${joinUrl}api/exchanges/${id}`);
    expect((await get(shown.exchanges[0]!.id)).status).toBe(200);
    const unshown = await get(hidden.exchanges[0]!.id);
    const missing = await get(999_999);
    expect([unshown.status, missing.status]).toEqual([404, 404]);
    expect(await unshown.text()).toBe((await missing.text()).replace("999999", String(hidden.exchanges[0]!.id)));
    // A shown chat's views: what the presenter's full views say, token ids included, as JSON that is not kept.
    const chat = shown.exchanges.find((x) => x.classification.kind === "model.chat")!;
    // Built first through the presenter's API: this port's short idle limit would close the socket while it builds.
    const presenter = await (await fetch(`${recorder.url}/api/exchanges/${chat.id}/views`)).json();
    const views = await fetch(`${joinUrl}api/exchanges/${chat.id}/views`);
    expect(views.status).toBe(200);
    expect(views.headers.get("content-type")).toBe("application/json");
    expect(views.headers.get("cache-control")).toBe("no-store");
    const seen = (await views.json()) as { prompt: { tokens: { ids: number[] } } };
    expect(seen.prompt.tokens.ids.length).toBeGreaterThan(100);
    expect(seen).toEqual(presenter);
    expect(await (await fetch(`${joinUrl}api/exchanges/${chat.id}/views`)).json()).toEqual(seen);
  });

  it("gives a shown trace's notes changes only within that trace's span: no hand edit or reset from outside it", async () => {
    const reset = await fetch(`${recorder.url}/api/notes/reset`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ set: "dentist" }),
    });
    expect(reset.status).toBe(200);
    const shown = await importArticle();
    await show(shown.id);
    const query = `traceId=${shown.id}&from=0&to=${Number.MAX_SAFE_INTEGER}`;
    type Changes = { changes: { traceId: string | null }[] };
    const presenter = (await (await fetch(`${recorder.url}/api/notes/changes?${query}`)).json()) as Changes;
    expect(presenter.changes.some((c) => c.traceId === null)).toBe(true);
    const res = await fetch(`${joinUrl}api/notes/changes?${query}`);
    expect(res.status).toBe(200);
    const viewer = (await res.json()) as Changes;
    expect(viewer.changes.filter((c) => c.traceId === null)).toEqual([]);
    expect((await fetch(`${joinUrl}api/notes/changes?traceId=not-shown`)).status).toBe(404);
  });

  it("caps its sockets and closes idle and slow-header ones within seconds", async () => {
    const sockets = await Promise.all(Array.from({ length: 30 }, () => openSocket().catch(() => null)));
    await new Promise((r) => setTimeout(r, 200));
    const open = sockets.filter((s) => s && !closed(s));
    expect(open.length).toBeLessThanOrEqual(LIMITS.maxSockets);
    // A slow-header client: a byte every 100 ms never completes its head.
    const slow = await openSocket();
    const trickle = setInterval(() => slow.write("x"), 100);
    slow.write("GET /j/");
    await new Promise((r) => setTimeout(r, LIMITS.idleMs + 1_500));
    clearInterval(trickle);
    expect(sockets.filter((s) => s && !closed(s))).toHaveLength(0);
    expect(closed(slow)).toBe(true);
  });

  it("limits wrong join codes per address and tells the presenter", async () => {
    const before = await status();
    if (before.state !== "open") throw new Error("closed");
    const wrong = `${origin}/j/wrongcode99/`;
    const codes: number[] = [];
    for (let i = 0; i < 14; i++) codes.push((await fetch(wrong)).status);
    expect(codes.slice(0, 10).every((c) => c === 403)).toBe(true);
    expect(codes.at(-1)).toBe(429);
    // Blocked: the right code is refused too, so guessing teaches nothing.
    expect((await fetch(joinUrl)).status).toBe(429);
    const after = await status();
    if (after.state !== "open") throw new Error("closed");
    expect(after.wrongCodes.refused - before.wrongCodes.refused).toBeGreaterThanOrEqual(11);
    expect(after.wrongCodes.blocked).toBe(1);
    expect(after.wrongCodes.lastAt).not.toBeNull();
  });
});
