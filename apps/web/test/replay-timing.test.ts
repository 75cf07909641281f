import { describe, expect, it } from "vitest";
import { numberHops } from "../src/models/hops";
import {
  MAX_GAP_MS,
  chunksVisibleAt,
  delayBetween,
  nextEventIndex,
  replayEvents,
  traceStart,
} from "../src/models/replay-timing";
import { articleTrace, exchange } from "./fixtures";

describe("replay timing", () => {
  it("orders hops by when they happened, relative to the trace start", () => {
    const xs = articleTrace().map((x) => ({
      ...x,
      timings: {
        ...x.timings,
        start: x.timings.start + 1000,
        end: x.timings.end! + 1000,
        firstByte: x.timings.firstByte! + 1000,
      },
    }));
    const events = replayEvents(numberHops(xs), xs, new Map());
    expect(traceStart(xs)).toBe(1000);
    const hopEvents = events.filter((e) => e.type === "hop");
    expect(hopEvents.map((e) => [e.t, e.type === "hop" ? e.hop : 0])).toEqual([
      [0, 1],
      [5, 2],
      [12, 3],
      [40, 4],
      [41, 5],
      [46, 6],
      [90, 7],
      [100, 8],
    ]);
  });

  it("plays a streamed response's chunks at their recorded times, after its arrow appears", () => {
    const base = exchange(
      {
        tap: "model",
        chunkCount: 3,
        classification: { kind: "model.chat", messageCount: 1, toolCount: 0, stream: true, toolCalls: [] },
      },
      100,
      400,
    );
    const x = { ...base, timings: { ...base.timings, firstByte: 150 } };
    const chunks = [
      { index: 0, t: 50, offset: 0, size: 10 },
      { index: 1, t: 120, offset: 10, size: 10 },
      { index: 2, t: 300, offset: 20, size: 10 },
    ];
    const events = replayEvents(numberHops([x]), [x], new Map([[x.id, chunks]]));
    expect(events.map((e) => `${e.type}@${e.t}`)).toEqual([
      "hop@0",
      "hop@50",
      "chunk@50",
      "chunk@120",
      "chunk@300",
      "end@300",
    ]);
    expect(chunksVisibleAt(chunks, 100, 100, 119)).toBe(1);
    expect(chunksVisibleAt(chunks, 100, 100, 120)).toBe(2);
    // Stepping the cursor just past the first chunk reveals the response hop and that chunk only.
    expect(events.slice(0, nextEventIndex(events, 50)).map((e) => e.type)).toEqual(["hop", "hop", "chunk"]);
  });

  it("scales delays by speed and shortens long silences", () => {
    expect(delayBetween(0, 400, 1)).toBe(400);
    expect(delayBetween(0, 400, 4)).toBe(100);
    expect(delayBetween(0, 60_000, 1)).toBe(MAX_GAP_MS);
    expect(delayBetween(10, 5, 1)).toBe(0);
  });

  it("finds the next event after a cursor", () => {
    const events = [
      { t: 0, type: "hop" as const, hop: 1 },
      { t: 10, type: "hop" as const, hop: 2 },
      { t: 10, type: "end" as const, exchangeId: 1 },
      { t: 20, type: "hop" as const, hop: 3 },
    ];
    expect(nextEventIndex(events, -1)).toBe(0);
    expect(nextEventIndex(events, 0)).toBe(1);
    expect(nextEventIndex(events, 10)).toBe(3);
    expect(nextEventIndex(events, 20)).toBe(4);
  });
});
