/**
 * What the replay tests share: the curated traces, POST /api/replay, and the comparisons of a replayed trace's
 * frames and stored copy with the original recording.
 */
import { readFile } from "node:fs/promises";
import { expect } from "vitest";
import { parseTraceBundle, type TraceBundle } from "@hopscope/shared/trace/bundle";
import { ReplayStartedSchema, type ReplayStarted } from "@hopscope/shared/trace/replay";
import {
  ExchangeSchema,
  TraceSchema,
  type Exchange,
  type ServerFrame,
  type Trace,
} from "@hopscope/shared/trace/schemas";
import type { ReplayClock } from "../src/main/replay/player";
import { getJson, type FeedClient, type TestRecorder } from "./helpers";

const TRACES = new URL("../../../traces/", import.meta.url);

/**
 * A replay clock the test moves on: a replay plays exactly as far as the test has moved it, so what it
 * asks of an exchange "still playing" cannot have finished meanwhile, however busy the machine.
 */
export class SteppedClock implements ReplayClock {
  private t = 0;
  private readonly timers = new Set<{ at: number; fire: () => void }>();

  now(): number {
    return this.t;
  }

  setTimer(fire: () => void, ms: number): { cancel(): void } {
    const timer = { at: this.t + ms, fire };
    this.timers.add(timer);
    return { cancel: () => this.timers.delete(timer) };
  }

  /** Timers set and not yet fired or cancelled. */
  get pending(): number {
    return this.timers.size;
  }

  /** Moves the time to `ms`, firing on the way, in time order, every timer due by then. */
  moveTo(ms: number): void {
    for (;;) {
      const next = [...this.timers].filter((x) => x.at <= ms).sort((a, b) => a.at - b.at)[0];
      if (!next) break;
      this.timers.delete(next);
      this.t = Math.max(this.t, next.at);
      next.fire();
    }
    this.t = Math.max(this.t, ms);
  }
}

/** Halfway between the recorded moment `at` (ms from the trace's first request) and the next event after it. */
export function justAfter(bundle: TraceBundle, at: number): number {
  const t0 = Math.min(...bundle.exchanges.map((e) => e.timings.start));
  const moments = bundle.exchanges.flatMap((e) => [
    e.timings.start,
    ...e.chunks.map((c) => e.timings.start + c.t),
    e.timings.end ?? e.timings.start,
  ]);
  const next = Math.min(...moments.map((m) => m - t0).filter((m) => m > at + 2));
  return Number.isFinite(next) ? (at + next) / 2 : at + 1;
}

export async function curated(name: string): Promise<TraceBundle> {
  return parseTraceBundle(JSON.parse(await readFile(new URL(`${name}.hopscope.json`, TRACES), "utf8")));
}

export function post(rec: TestRecorder, body: unknown): Promise<{ status: number; body: unknown }> {
  return getJson(`${rec.url}/api/replay`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
}

export async function replay(rec: TestRecorder, body: unknown): Promise<ReplayStarted> {
  const res = await post(rec, body);
  expect(res.status, JSON.stringify(res.body)).toBe(202);
  return ReplayStartedSchema.parse(res.body);
}

/** Waits until the recorder announced the replayed trace with all its exchanges stored. */
export async function untilStored(feed: FeedClient, started: ReplayStarted): Promise<void> {
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

export type ExchangeFrame = Extract<
  ServerFrame,
  { type: "exchange.started" | "exchange.chunk" | "exchange.completed" }
>;

export function framesOf(feed: FeedClient, traceId: string): ExchangeFrame[] {
  return feed.frames.filter(
    (f): f is ExchangeFrame =>
      (f.type === "exchange.chunk" && f.traceId === traceId) ||
      ((f.type === "exchange.started" || f.type === "exchange.completed") && f.exchange.traceId === traceId),
  );
}

/** The original exchange a frame of the replay is about (replay seq = position in the original trace). */
export function originalOf(bundle: TraceBundle, frames: ExchangeFrame[], frame: ExchangeFrame): Exchange {
  const id = frame.type === "exchange.chunk" ? frame.exchangeId : frame.exchange.id;
  const started = frames.find((f) => f.type === "exchange.started" && f.exchange.id === id);
  if (started?.type !== "exchange.started") throw new Error(`no exchange.started for exchange ${id}`);
  const originalId = bundle.trace.exchanges[started.exchange.seq - 1]?.id;
  const ex = bundle.exchanges.find((e) => e.id === originalId);
  if (!ex) throw new Error(`no original exchange at seq ${started.exchange.seq}`);
  return ex;
}

/** When a frame's event happened in the original recording (epoch ms). */
export function recordedTime(ex: Exchange, frame: ExchangeFrame): number {
  if (frame.type === "exchange.started") return ex.timings.start;
  if (frame.type === "exchange.chunk") return ex.timings.start + frame.chunk.t;
  return ex.timings.end ?? ex.timings.start;
}

export function responseSlice(ex: Exchange, offset: number, size: number): string {
  const body = ex.responseBody;
  if (!body) throw new Error(`exchange ${ex.id} has no response body`);
  return Buffer.from(body.data, body.encoding === "utf8" ? "utf8" : "base64")
    .subarray(offset, offset + size)
    .toString("utf8");
}

/** Links by position in the trace, so a copy with new ids compares equal. */
export function linksBySeq(trace: Pick<Trace, "exchanges" | "links">): string[] {
  const seq = new Map(trace.exchanges.map((e) => [e.id, e.seq]));
  return trace.links
    .map(
      (l) =>
        `${l.kind} ${l.toolName} #${seq.get(l.from)} → #${seq.get(l.to)} ${l.toolCallIndex ?? ""}/${l.messageIndex ?? ""}`,
    )
    .sort();
}

/** Everything of an exchange a replay must keep: all but its ids and its clock. */
export function content(ex: Exchange) {
  const { id: _id, traceId: _t, timings, ...rest } = ex;
  const d = (v: number | null) => (v === null ? null : Math.round((v - timings.start) * 1000) / 1000);
  return {
    ...rest,
    durations: { requestEnd: d(timings.requestEnd), firstByte: d(timings.firstByte), end: d(timings.end) },
  };
}

export async function storedExchanges(rec: TestRecorder, trace: Trace): Promise<Exchange[]> {
  return Promise.all(
    trace.exchanges.map(async (e) => ExchangeSchema.parse((await getJson(`${rec.url}/api/exchanges/${e.id}`)).body)),
  );
}

/** The replayed trace, as stored, equals the original but for ids and a clock moved to the replay. */
export async function expectStoredCopy(rec: TestRecorder, started: ReplayStarted, bundle: TraceBundle): Promise<Trace> {
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

/** What POST /api/replay answered for a bundle: a new trace named after it, lasting as long as the recording. */
export function expectStartedFor(started: ReplayStarted, bundle: TraceBundle): void {
  expect(started.traceId).not.toBe(bundle.trace.id);
  expect(started.name).toBe(`${bundle.trace.name} (replay)`);
  expect(started.exchangeCount).toBe(bundle.exchanges.length);
  const t0 = Math.min(...bundle.exchanges.map((e) => e.timings.start));
  const last = Math.max(...bundle.exchanges.map((e) => e.timings.end ?? e.timings.start));
  expect(started.durationMs).toBeCloseTo(last - t0, 0);
}

/** Every frame in the order its event happened when the trace was recorded, the answers in the order they came. */
export function expectRecordedOrder(frames: ExchangeFrame[], bundle: TraceBundle): void {
  const starts = frames.filter((f) => f.type === "exchange.started");
  expect(starts.map((f) => f.exchange.seq)).toEqual(bundle.trace.exchanges.map((_, i) => i + 1));
  // Chunk times and ends come from two clocks of the recorder: allow them a millisecond.
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
}

/** A replayed frame carries what the original exchange had at that point of its life. */
export function expectFrameLikeOriginal(f: ExchangeFrame, ex: Exchange): void {
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

/** The streamed answer arrives token by token, between its start and its end, in order. */
export function expectStreamedInOrder(feed: FeedClient, started: ReplayStarted, bundle: TraceBundle): void {
  const frames = framesOf(feed, started.traceId);
  const streamed = bundle.exchanges.find((e) => e.chunks.length > 2) as Exchange;
  const seq = bundle.trace.exchanges.findIndex((s) => s.id === streamed.id) + 1;
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
}
