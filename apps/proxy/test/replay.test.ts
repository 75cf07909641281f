/**
 * POST /api/replay: a curated trace (recorded from the real stack) played into a real recorder on port 0,
 * watched by a real WebSocket client: a new trace whose hops appear live in recorded order with their
 * streamed chunks, then stored with the original's bytes, classification and links.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TraceBundle } from "@hopscope/shared/trace/bundle";
import { ReplaysPlayingSchema, type ReplayStarted } from "@hopscope/shared/trace/replay";
import { TraceSchema } from "@hopscope/shared/trace/schemas";
import { FeedClient, getJson, startRecorder, type TestRecorder } from "./helpers";
import {
  curated,
  expectFrameLikeOriginal,
  expectRecordedOrder,
  expectStartedFor,
  expectStoredCopy,
  expectStreamedInOrder,
  framesOf,
  linksBySeq,
  originalOf,
  post,
  replay,
  untilStored,
} from "./replay-support";

describe("POST /api/replay", () => {
  let rec: TestRecorder;
  let buyMilk: TraceBundle;
  let streaming: TraceBundle;

  beforeAll(async () => {
    [buyMilk, streaming] = await Promise.all([curated("buy-milk"), curated("streaming")]);
    rec = await startRecorder({});
  });
  afterAll(() => rec?.close());

  /** The replay's frames as played and its trace as stored, each against the original; the stored ids. */
  async function expectLikeOriginal(feed: FeedClient, started: ReplayStarted, bundle: TraceBundle): Promise<number[]> {
    const frames = framesOf(feed, started.traceId);
    expectRecordedOrder(frames, bundle);
    for (const f of frames) expectFrameLikeOriginal(f, originalOf(bundle, frames, f));
    const chunkFrames = frames.filter((f) => f.type === "exchange.chunk");
    expect(chunkFrames).toHaveLength(bundle.exchanges.reduce((n, e) => n + e.chunks.length, 0));

    const trace = await expectStoredCopy(rec, started, bundle);
    const updates = feed.frames.filter((f) => f.type === "trace.updated" && f.trace.id === started.traceId);
    const final = updates.at(-1);
    expect(final?.type === "trace.updated" && linksBySeq({ exchanges: trace.exchanges, links: final.links })).toEqual(
      linksBySeq(bundle.trace),
    );
    return trace.exchanges.map((e) => e.id);
  }

  it("plays two traces at once into the live feed in recorded order, then stores each like the original", async () => {
    const feed = new FeedClient(rec.wsUrl);
    try {
      await feed.opened();
      await feed.until((fs) => fs.some((f) => f.type === "snapshot"), "snapshot");
      const [a, b] = await Promise.all([
        replay(rec, { bundle: buyMilk, speed: 20 }),
        replay(rec, { bundle: streaming, speed: 20 }),
      ]);
      expectStartedFor(a, buyMilk);
      expectStartedFor(b, streaming);
      expect(a.traceId).not.toBe(b.traceId);
      await Promise.all([untilStored(feed, a), untilStored(feed, b)]);

      // Exchange ids are the recorder's own, never shared between traces.
      const ids = [...(await expectLikeOriginal(feed, a, buyMilk)), ...(await expectLikeOriginal(feed, b, streaming))];
      expect(new Set(ids).size).toBe(buyMilk.exchanges.length + streaming.exchanges.length);
      expectStreamedInOrder(feed, b, streaming);
    } finally {
      feed.close();
    }
  });

  it("replays a stored trace by id", async () => {
    const imported = await getJson<{ id: string }>(`${rec.url}/api/import`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(buyMilk),
    });
    expect(imported.status).toBe(200);
    const feed = new FeedClient(rec.wsUrl);
    try {
      await feed.opened();
      const started = await replay(rec, { traceId: imported.body.id, speed: 50 });
      expect(started.traceId).not.toBe(imported.body.id);
      expect(started.name).toBe(`${buyMilk.trace.name} (replay)`);
      await untilStored(feed, started);
      const copy = await expectStoredCopy(rec, started, buyMilk);
      // Played to its end: no longer listed among the replays playing.
      await expect
        .poll(async () => ReplaysPlayingSchema.parse((await getJson(`${rec.url}/api/replay`)).body).replays)
        .toEqual([]);
      const original = TraceSchema.parse((await getJson(`${rec.url}/api/traces/${imported.body.id}`)).body);
      expect(copy.exchanges.map((e) => e.id)).not.toContain(original.exchanges[0]?.id);
    } finally {
      feed.close();
    }
  });

  it("refuses a bad trace file with what is wrong in it, and stores nothing", async () => {
    const before = (await getJson<{ traces: unknown[] }>(`${rec.url}/api/traces?limit=500`)).body.traces.length;
    const broken = structuredClone(buyMilk) as unknown as { exchanges: { requestBody: { encoding: string } }[] };
    (broken.exchanges[1] as { requestBody: { encoding: string } }).requestBody.encoding = "latin1";
    const res = await post(rec, { bundle: broken, speed: 2 });
    expect(res.status).toBe(400);
    expect((res.body as { error: string }).error).toContain(
      'exchanges[1].requestBody.encoding: expected "utf8" or "base64", got "latin1"',
    );

    const notTrace = await post(rec, { bundle: { log: { entries: [] } } });
    expect(notTrace.status).toBe(400);
    expect((notTrace.body as { error: string }).error).toMatch(
      /format: expected "hopscope-trace", got undefined: this is not a hopscope trace file/,
    );

    const empty = await post(rec, {
      bundle: { ...buyMilk, trace: { ...buyMilk.trace, exchanges: [], links: [] }, exchanges: [] },
    });
    expect(empty.status).toBe(400);
    expect((empty.body as { error: string }).error).toContain("nothing to replay");

    expect((await getJson<{ traces: unknown[] }>(`${rec.url}/api/traces?limit=500`)).body.traces).toHaveLength(before);
  });

  it("says how to call it when the request is not a replay request", async () => {
    const none = await post(rec, { speed: 2 });
    expect(none.status).toBe(400);
    expect((none.body as { error: string }).error).toMatch(/"bundle".*"traceId"/);
    const fast = await post(rec, { traceId: "abc", speed: 500 });
    expect(fast.status).toBe(400);
    expect((fast.body as { error: string }).error).toMatch(/^not a replay request: speed: .*100/);
    const notJson = await getJson<{ error: string }>(`${rec.url}/api/replay`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{ nope",
    });
    expect(notJson.status).toBe(400);
    expect(notJson.body.error).toMatch(/must be JSON/);
  });

  it("answers 404 for a trace id it does not have", async () => {
    const res = await post(rec, { traceId: "0123456789abcdef0123456789abcdef" });
    expect(res.status).toBe(404);
    expect((res.body as { error: string }).error).toMatch(/no trace 0123456789abcdef0123456789abcdef/);
  });
});
