/** Tap events packed for the recording thread (link/event-codec.ts) come back as they were sent. */
import { describe, expect, it } from "vitest";
import { EventEncoder, forEachEvent } from "../src/link/event-codec";
import type { TapEvent } from "../src/link/protocol";

function decoded(batch: Parameters<typeof forEachEvent>[0]): TapEvent[] {
  const out: TapEvent[] = [];
  forEachEvent(batch, (e) => out.push(e));
  return out;
}

describe("event codec", () => {
  it("round-trips every kind of event, nulls and optional fields included, across a growth of its buffer", () => {
    const sent: TapEvent[] = [
      {
        k: "begin",
        id: 1,
        tap: "agent",
        method: "POST",
        url: "/agent?x=1",
        upstream: "http://127.0.0.1:7073",
        headers: "Host: a\r\nX-Y: 1: 2\r\n",
        connection: "127.0.0.1:5000",
        start: 1764592356000.125,
      },
      {
        k: "begin",
        id: 2,
        tap: "model",
        method: "GET",
        url: "/",
        upstream: "http://u",
        headers: "",
        connection: null,
        start: 1.5,
      },
      {
        k: "request",
        id: 1,
        parts: [
          [0, 10],
          [10, 5],
        ],
        size: 15,
        at: 1764592356001.5,
      },
      { k: "request", id: 2, parts: [], size: 0, at: null },
      { k: "response", id: 1, status: 201, headers: "Content-Type: text/plain\r\n" },
      { k: "chunk", id: 1, t: 0.25, size: 100, bytes: [15, 100] },
      { k: "chunk", id: 1, t: 3, size: 70000, bytes: null, text: [115, 70000] },
      { k: "chunk", id: 1, t: 4, size: 9, bytes: null },
      { k: "end", id: 1, state: "complete", error: null, at: 1764592356002 },
      { k: "end", id: 2, state: "aborted", error: "the client closed the connection", at: 2 },
    ];
    const enc = new EventEncoder();
    // Enough events to grow the packed numbers past their first buffer.
    const many = Array.from({ length: 600 }, (_, i) => sent[i % sent.length]!);
    for (const e of many) enc.push(e);
    const out = decoded(enc.take());
    expect(out).toHaveLength(many.length);
    const expected = many;
    expect(out).toEqual(expected);
    // The encoder starts empty again.
    expect(decoded(enc.take())).toEqual([]);
  });
});
