/**
 * POST /api/replay: a curated trace (recorded from the real stack) played into a real recorder on port 0,
 * watched by a real WebSocket client: a new trace whose hops appear live in recorded order with their
 * streamed chunks, then stored with the original's bytes, classification and links.
 */
import { readFile } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseTraceBundle, type TraceBundle } from "@hopscope/shared/trace/bundle";
import { ReplaysPlayingSchema, ReplayStartedSchema, type ReplayStarted } from "@hopscope/shared/trace/replay";
import {
  ExchangeSchema,
  TraceSchema,
  type Exchange,
  type ServerFrame,
  type Trace,
} from "@hopscope/shared/trace/schemas";
import { FeedClient, getJson, startRecorder, type TestRecorder } from "./helpers";

const TRACES = new URL("../../../traces/", import.meta.url);

async function curated(name: string): Promise<TraceBundle> {
  return parseTraceBundle(JSON.parse(await readFile(new URL(`${name}.hopscope.json`, TRACES), "utf8")));
}

function post(rec: TestRecorder, body: unknown): Promise<{ status: number; body: unknown }> {
  return getJson(`${rec.url}/api/replay`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
}

async function replay(rec: TestRecorder, body: unknown): Promise<ReplayStarted> {
  const res = await post(rec, body);
  expect(res.status, JSON.stringify(res.body)).toBe(202);
  return ReplayStartedSchema.parse(res.body);
}

/** Waits until the recorder announced the replayed trace with all its exchanges stored. */
async function untilStored(feed: FeedClient, started: ReplayStarted): Promise<void> {
  await feed.until(
    (fs) =>
      fs.some(
        (f) =>
          f.type === "trace.updated" &&
          f.trace.id === started.traceId &&
          f.trace.exchangeCount === started.exchangeCount,
      ),
    `the replayed trace ${started.traceId} stored whole`,
  );
}

type ExchangeFrame = Extract<ServerFrame, { type: "exchange.started" | "exchange.chunk" | "exchange.completed" }>;

function framesOf(feed: FeedClient, traceId: string): ExchangeFrame[] {
  return feed.frames.filter(
    (f): f is ExchangeFrame =>
      (f.type === "exchange.chunk" && f.traceId === traceId) ||
      ((f.type === "exchange.started" || f.type === "exchange.completed") && f.exchange.traceId === traceId),
  );
}

/** The original exchange a frame of the replay is about (replay seq = position in the original trace). */
function originalOf(bundle: TraceBundle, frames: ExchangeFrame[], frame: ExchangeFrame): Exchange {
  const id = frame.type === "exchange.chunk" ? frame.exchangeId : frame.exchange.id;
  const started = frames.find((f) => f.type === "exchange.started" && f.exchange.id === id);
  if (started?.type !== "exchange.started") throw new Error(`no exchange.started for exchange ${id}`);
  const originalId = bundle.trace.exchanges[started.exchange.seq - 1]?.id;
  const ex = bundle.exchanges.find((e) => e.id === originalId);
  if (!ex) throw new Error(`no original exchange at seq ${started.exchange.seq}`);
  return ex;
}

/** When a frame's event happened in the original recording (epoch ms). */
function recordedTime(ex: Exchange, frame: ExchangeFrame): number {
  if (frame.type === "exchange.started") return ex.timings.start;
  if (frame.type === "exchange.chunk") return ex.timings.start + frame.chunk.t;
  return ex.timings.end ?? ex.timings.start;
}

function responseSlice(ex: Exchange, offset: number, size: number): string {
  const body = ex.responseBody;
  if (!body) throw new Error(`exchange ${ex.id} has no response body`);
  return Buffer.from(body.data, body.encoding === "utf8" ? "utf8" : "base64")
    .subarray(offset, offset + size)
    .toString("utf8");
}

/** Links by position in the trace, so a copy with new ids compares equal. */
function linksBySeq(trace: Pick<Trace, "exchanges" | "links">): string[] {
  const seq = new Map(trace.exchanges.map((e) => [e.id, e.seq]));
  return trace.links
    .map(
      (l) =>
        `${l.kind} ${l.toolName} #${seq.get(l.from)} → #${seq.get(l.to)} ${l.toolCallIndex ?? ""}/${l.messageIndex ?? ""}`,
    )
    .sort();
}

/** Everything of an exchange a replay must keep: all but its ids and its clock. */
function content(ex: Exchange) {
  const { id: _id, traceId: _t, timings, ...rest } = ex;
  const d = (v: number | null) => (v === null ? null : Math.round((v - timings.start) * 1000) / 1000);
  return {
    ...rest,
    durations: { requestEnd: d(timings.requestEnd), firstByte: d(timings.firstByte), end: d(timings.end) },
  };
}

async function storedExchanges(rec: TestRecorder, trace: Trace): Promise<Exchange[]> {
  return Promise.all(
    trace.exchanges.map(async (e) => ExchangeSchema.parse((await getJson(`${rec.url}/api/exchanges/${e.id}`)).body)),
  );
}

/** The replayed trace, as stored, equals the original but for ids and a clock moved to the replay. */
async function expectStoredCopy(rec: TestRecorder, started: ReplayStarted, bundle: TraceBundle): Promise<Trace> {
  const trace = TraceSchema.parse((await getJson(`${rec.url}/api/traces/${started.traceId}`)).body);
  expect(trace).toMatchObject({
    name: `${bundle.trace.name} (replay)`,
    source: "imported",
    groupedBy: bundle.trace.groupedBy,
    exchangeCount: bundle.exchanges.length,
  });
  expect(trace.simulated).toBe(bundle.trace.simulated);
  expect(linksBySeq(trace)).toEqual(linksBySeq(bundle.trace));
  expect(trace.links.length).toBeGreaterThan(0);
  const copies = await storedExchanges(rec, trace);
  const originals = bundle.trace.exchanges.map((s) => bundle.exchanges.find((e) => e.id === s.id) as Exchange);
  expect(copies.map(content)).toEqual(originals.map(content));
  // One shift for the whole trace: the hops keep their recorded offsets from the first request.
  const t0 = Math.min(...originals.map((e) => e.timings.start));
  const c0 = Math.min(...copies.map((e) => e.timings.start));
  copies.forEach((c, i) => expect(c.timings.start - c0).toBeCloseTo((originals[i] as Exchange).timings.start - t0, 3));
  expect(c0).toBeGreaterThan(bundle.trace.createdAt);
  return trace;
}

describe("POST /api/replay", () => {
  let rec: TestRecorder;
  let buyMilk: TraceBundle;
  let streaming: TraceBundle;

  beforeAll(async () => {
    [buyMilk, streaming] = await Promise.all([curated("buy-milk"), curated("streaming")]);
    rec = await startRecorder({});
  });
  afterAll(() => rec?.dispose());

  it("plays two traces at once into the live feed in recorded order, then stores each like the original", async () => {
    const feed = new FeedClient(rec.wsUrl);
    try {
      await feed.opened();
      await feed.until((fs) => fs.some((f) => f.type === "snapshot"), "snapshot");
      const [a, b] = await Promise.all([
        replay(rec, { bundle: buyMilk, speed: 20 }),
        replay(rec, { bundle: streaming, speed: 20 }),
      ]);

      for (const [started, bundle] of [
        [a, buyMilk],
        [b, streaming],
      ] as const) {
        expect(started.traceId).not.toBe(bundle.trace.id);
        expect(started.name).toBe(`${bundle.trace.name} (replay)`);
        expect(started.exchangeCount).toBe(bundle.exchanges.length);
        const t0 = Math.min(...bundle.exchanges.map((e) => e.timings.start));
        const last = Math.max(...bundle.exchanges.map((e) => e.timings.end ?? e.timings.start));
        expect(started.durationMs).toBeCloseTo(last - t0, 0);
      }
      expect(a.traceId).not.toBe(b.traceId);
      await Promise.all([untilStored(feed, a), untilStored(feed, b)]);

      // Exchange ids are the recorder's own, never shared between traces.
      const ids: number[] = [];
      for (const [started, bundle] of [
        [a, buyMilk],
        [b, streaming],
      ] as const) {
        const frames = framesOf(feed, started.traceId);
        const starts = frames.filter((f) => f.type === "exchange.started");
        expect(starts.map((f) => f.exchange.seq)).toEqual(bundle.trace.exchanges.map((_, i) => i + 1));
        // Every frame in the order its event happened when the trace was recorded (chunk times and ends
        // come from two clocks of the recorder: allow them a millisecond).
        const times = frames.map((f) => recordedTime(originalOf(bundle, frames, f), f));
        times.forEach(
          (t, i) =>
            i > 0 && expect(t, `frame ${i} (${frames[i]?.type})`).toBeGreaterThanOrEqual((times[i - 1] as number) - 1),
        );
        // The answers came back in the order they did then, not in request order.
        const ends = frames.filter((f) => f.type === "exchange.completed").map((f) => f.exchange.seq);
        const recordedEnds = [...bundle.trace.exchanges]
          .map((s, i) => ({
            seq: i + 1,
            end: (bundle.exchanges.find((e) => e.id === s.id) as Exchange).timings.end as number,
          }))
          .sort((x, y) => x.end - y.end)
          .map((x) => x.seq);
        expect(ends).toEqual(recordedEnds);

        for (const f of frames) {
          const ex = originalOf(bundle, frames, f);
          if (f.type === "exchange.started") {
            // Announced with the request only, as a tap announces a request.
            expect(f.exchange).toMatchObject({
              state: "pending",
              status: null,
              tap: ex.tap,
              method: ex.method,
              url: ex.url,
              requestSize: ex.requestSize,
              chunkCount: 0,
            });
            expect(f.exchange.classification.kind).toBe(ex.classification.kind);
            if (f.exchange.classification.kind === "model.chat" && ex.classification.kind === "model.chat") {
              expect(f.exchange.classification.messageCount).toBe(ex.classification.messageCount);
              expect(f.exchange.classification.toolCalls).toEqual([]);
            }
          } else if (f.type === "exchange.chunk") {
            expect(f.chunk).toEqual(ex.chunks[f.chunk.index]);
            expect(f.text).toBe(responseSlice(ex, f.chunk.offset, f.chunk.size));
          } else {
            expect(f.exchange).toMatchObject({
              state: ex.state,
              status: ex.status,
              classification: ex.classification,
              chunkCount: ex.chunks.length,
            });
          }
        }
        const chunkFrames = frames.filter((f) => f.type === "exchange.chunk");
        expect(chunkFrames).toHaveLength(bundle.exchanges.reduce((n, e) => n + e.chunks.length, 0));

        const trace = await expectStoredCopy(rec, started, bundle);
        ids.push(...trace.exchanges.map((e) => e.id));
        const updates = feed.frames.filter((f) => f.type === "trace.updated" && f.trace.id === started.traceId);
        const final = updates.at(-1);
        expect(
          final?.type === "trace.updated" && linksBySeq({ exchanges: trace.exchanges, links: final.links }),
        ).toEqual(linksBySeq(bundle.trace));
      }

      expect(new Set(ids).size).toBe(buyMilk.exchanges.length + streaming.exchanges.length);

      // The streamed answer arrives token by token, between its start and its end, in order.
      const frames = framesOf(feed, b.traceId);
      const streamed = streaming.exchanges.find((e) => e.chunks.length > 2) as Exchange;
      const seq = streaming.trace.exchanges.findIndex((s) => s.id === streamed.id) + 1;
      const start = frames.find((f) => f.type === "exchange.started" && f.exchange.seq === seq);
      const id = start?.type === "exchange.started" ? start.exchange.id : -1;
      const own = frames.filter((f) => (f.type === "exchange.chunk" ? f.exchangeId : f.exchange.id) === id);
      expect(own.map((f) => f.type)).toEqual([
        "exchange.started",
        ...streamed.chunks.map(() => "exchange.chunk"),
        "exchange.completed",
      ]);
      const texts = own.flatMap((f) => (f.type === "exchange.chunk" ? [f.text] : []));
      expect(texts.join("")).toBe(streamed.responseBody?.data);
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

describe("a replay in flight", () => {
  it("serves each exchange still playing on GET /api/exchanges/:id, as far as it has played", async () => {
    const bundle = await curated("streaming");
    const rec = await startRecorder({});
    const feed = new FeedClient(rec.wsUrl);
    try {
      await feed.opened();
      // At half the recorded pace: hop 3 waits ~4 s for the model's first byte, hop 5 streams 12 chunks over ~0.6 s.
      const started = await replay(rec, { bundle, speed: 0.5 });
      const startOf = async (seq: number) => {
        await feed.until(
          () => framesOf(feed, started.traceId).some((f) => f.type === "exchange.started" && f.exchange.seq === seq),
          `hop ${seq} started`,
        );
        const f = framesOf(feed, started.traceId).find((x) => x.type === "exchange.started" && x.exchange.seq === seq);
        return f?.type === "exchange.started" ? f.exchange.id : -1;
      };
      const originalAt = (seq: number) =>
        bundle.exchanges.find((e) => e.id === bundle.trace.exchanges[seq - 1]?.id) as Exchange;

      // Waiting for the model: the request whole, no response yet — and what the model saw renders from it.
      const waiting = await startOf(3);
      const pending = await getJson(`${rec.url}/api/exchanges/${waiting}`);
      expect(pending.status, JSON.stringify(pending.body)).toBe(200);
      const x3 = ExchangeSchema.parse(pending.body);
      expect(x3).toMatchObject({
        id: waiting,
        traceId: started.traceId,
        seq: 3,
        state: "pending",
        status: null,
        responseBody: null,
        chunks: [],
      });
      expect(x3.requestBody).toEqual(originalAt(3).requestBody);
      expect(x3.requestHeaders).toEqual(originalAt(3).requestHeaders);
      expect((await getJson(`${rec.url}/api/exchanges/${waiting}/views`)).status).toBe(200);

      // Streaming: the chunks sent so far and exactly their bytes.
      const streaming = await startOf(5);
      await feed.until(
        () => feed.frames.some((f) => f.type === "exchange.chunk" && f.exchangeId === streaming),
        "hop 5's first chunk",
      );
      const part = ExchangeSchema.parse((await getJson(`${rec.url}/api/exchanges/${streaming}`)).body);
      const whole = originalAt(5);
      expect(part.state).toBe("streaming");
      expect(part.status).toBe(whole.status);
      expect(part.chunks.length).toBeGreaterThan(0);
      expect(part.chunks.length).toBeLessThan(whole.chunks.length);
      expect(part.chunks).toEqual(whole.chunks.slice(0, part.chunks.length));
      const last = part.chunks.at(-1) as Exchange["chunks"][number];
      expect(part.responseBody).toMatchObject({ encoding: "utf8", size: last.offset + last.size, truncated: false });
      expect(whole.responseBody?.data.startsWith(part.responseBody?.data ?? "\u0000")).toBe(true);

      // Once complete, the stored copy answers with the whole of it.
      await untilStored(feed, started);
      const done = ExchangeSchema.parse((await getJson(`${rec.url}/api/exchanges/${streaming}`)).body);
      expect(done.responseBody?.data).toBe(whole.responseBody?.data);
      expect((await getJson(`${rec.url}/api/exchanges/999999`)).status).toBe(404);
    } finally {
      feed.close();
      await rec.dispose();
    }
  });

  it("is listed with the exchanges in flight, and close() stops it and removes its unfinished trace", async () => {
    const bundle = await curated("streaming");
    const logged: string[] = [];
    const log = (level: string) => (obj: object, msg: string) =>
      void (level !== "info" && logged.push(`${level} ${msg} ${JSON.stringify(obj)}`));
    const logger = { info: log("info"), warn: log("warn"), error: log("error") };
    const rec = await startRecorder({}, {}, undefined, { logger });
    let reopened: TestRecorder | null = null;
    try {
      const feed = new FeedClient(rec.wsUrl);
      await feed.opened();
      // The question (the first hop) stays open for the whole trace: over a second at 2×, time to look.
      const started = await replay(rec, { bundle, speed: 2 });
      await feed.until(
        () => framesOf(feed, started.traceId).some((f) => f.type === "exchange.started"),
        "the first hop",
      );
      // A page opened now asks which replays are playing (GET /api/replay) to follow this one.
      const playing = ReplaysPlayingSchema.parse((await getJson(`${rec.url}/api/replay`)).body);
      expect(playing.replays).toEqual([{ ...started, speed: 2, startedAt: expect.any(Number) as number }]);

      const trace = TraceSchema.parse((await getJson(`${rec.url}/api/traces/${started.traceId}`)).body);
      expect(trace.name).toBe(`${bundle.trace.name} (replay)`);
      expect(trace.exchanges.some((e) => e.seq === 1 && (e.state === "pending" || e.state === "streaming"))).toBe(true);
      const late = new FeedClient(rec.wsUrl);
      await late.until((fs) => fs.some((f) => f.type === "snapshot"), "snapshot");
      const snapshot = late.frames.find((f) => f.type === "snapshot");
      expect(
        snapshot?.type === "snapshot" && snapshot.inFlight.some((e) => e.traceId === started.traceId && e.seq === 1),
      ).toBe(true);
      late.close();
      feed.close();

      await rec.close();
      // Had a timer survived close(), the replay would go on writing into the closed recorder (logged as
      // dropped). Give it the rest of the replay's time to show itself.
      await new Promise((r) => setTimeout(r, started.durationMs / 2));
      expect(logged).toEqual([]);

      reopened = await startRecorder({}, {}, rec.dir);
      const after = await getJson(`${reopened.url}/api/traces/${started.traceId}`);
      expect(after.status).toBe(404);
    } finally {
      await reopened?.close();
      await rec.dispose();
    }
  });
});
