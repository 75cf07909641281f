/**
 * A replay still playing: its exchanges served as far as they have played, listed among the exchanges in flight,
 * and stopped by close() with its unfinished trace removed. Real recorder on port 0, real WebSocket client; the
 * replay's clock is the test's, so each question is asked at a known point of the replay, however busy the machine.
 */
import { describe, expect, it } from "vitest";
import { ReplaysPlayingSchema } from "@hopscope/shared/trace/replay";
import { ExchangeSchema, TraceSchema, type Exchange } from "@hopscope/shared/trace/schemas";
import { FeedClient, getJson, startRecorder, type TestRecorder } from "./helpers";
import { SteppedClock, curated, framesOf, justAfter, replay, untilStored } from "./replay-support";

describe("a replay in flight", () => {
  it("serves each exchange still playing on GET /api/exchanges/:id, as far as it has played", async () => {
    const bundle = await curated("streaming");
    const clock = new SteppedClock();
    const rec = await startRecorder({}, {}, { deps: { replayClock: clock } });
    const feed = new FeedClient(rec.wsUrl);
    try {
      await feed.opened();
      // At the recorded pace, on the test's clock: the replay is as far as the clock has been moved.
      const started = await replay(rec, { bundle, speed: 1 });
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
      const t0 = Math.min(...bundle.exchanges.map((e) => e.timings.start));
      const recordedStart = (seq: number) => originalAt(seq).timings.start - t0;

      // Waiting for the model: the request whole, no response yet — and what the model saw renders from it.
      clock.moveTo(justAfter(bundle, recordedStart(3)));
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

      // Streaming: the chunks sent so far (4 of its 12) and exactly their bytes.
      const whole = originalAt(5);
      const sent = 4;
      clock.moveTo(justAfter(bundle, recordedStart(5) + (whole.chunks[sent - 1]?.t ?? NaN)));
      const streaming = await startOf(5);
      await feed.until(
        () => feed.frames.filter((f) => f.type === "exchange.chunk" && f.exchangeId === streaming).length === sent,
        `hop 5's first ${sent} chunks`,
      );
      const part = ExchangeSchema.parse((await getJson(`${rec.url}/api/exchanges/${streaming}`)).body);
      expect(part.state).toBe("streaming");
      expect(part.status).toBe(whole.status);
      expect(part.chunks.length).toBeLessThan(whole.chunks.length);
      expect(part.chunks).toEqual(whole.chunks.slice(0, sent));
      const last = part.chunks.at(-1) as Exchange["chunks"][number];
      expect(part.responseBody).toMatchObject({ encoding: "utf8", size: last.offset + last.size, truncated: false });
      expect(whole.responseBody?.data.startsWith(part.responseBody?.data ?? "\u0000")).toBe(true);

      // Once complete, the stored copy answers with the whole of it.
      clock.moveTo(started.durationMs + 1);
      await untilStored(feed, started);
      const done = ExchangeSchema.parse((await getJson(`${rec.url}/api/exchanges/${streaming}`)).body);
      expect(done.responseBody?.data).toBe(whole.responseBody?.data);
      expect((await getJson(`${rec.url}/api/exchanges/999999`)).status).toBe(404);
    } finally {
      feed.close();
      await rec.close();
    }
  });

  it("is listed with the exchanges in flight, and close() stops it and removes its unfinished trace", async () => {
    const bundle = await curated("streaming");
    const logged: string[] = [];
    const log = (level: string) => (obj: object, msg: string) =>
      void (level !== "info" && logged.push(`${level} ${msg} ${JSON.stringify(obj)}`));
    const logger = { info: log("info"), warn: log("warn"), error: log("error") };
    const clock = new SteppedClock();
    const rec = await startRecorder({}, {}, { deps: { logger, replayClock: clock } });
    let reopened: TestRecorder | null = null;
    try {
      const feed = new FeedClient(rec.wsUrl);
      await feed.opened();
      // The question (the first hop) stays open for the whole trace, and the test's clock stays at its start.
      const started = await replay(rec, { bundle, speed: 2 });
      clock.moveTo(0);
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

      await rec.stop();
      // Had a timer survived close(), the replay would go on writing into the closed recorder (logged as
      // dropped): none is left, and the rest of the replay's time plays nothing.
      expect(clock.pending).toBe(0);
      clock.moveTo(started.durationMs + 1);
      expect(logged).toEqual([]);

      reopened = await startRecorder({}, {}, { dir: rec.dir });
      const after = await getJson(`${reopened.url}/api/traces/${started.traceId}`);
      expect(after.status).toBe(404);
    } finally {
      await reopened?.close();
      await rec.close();
    }
  });
});
