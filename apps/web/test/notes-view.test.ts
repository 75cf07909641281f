/** How a notes-file change reads in the file lane: the loss first, bytes as hex, on the right hop. */
import { describe, expect, it } from "vitest";
import type { NotesChange } from "@hopscope/shared/trace/notes-file";
import type { Hop } from "../src/models/hops";
import { bytesOf, changesAt, hexLines, hopOfChange, laneMarks, viewOf } from "../src/models/notes-view";

const text = (data: string) => ({
  encoding: "utf8" as const,
  data,
  size: data.length,
  storedSize: data.length,
  truncated: false,
});
const change = (over: Partial<NotesChange>): NotesChange => ({
  id: 1,
  at: 50,
  file: "data/db",
  event: "changed",
  before: text(""),
  after: text(""),
  size: 0,
  cause: { kind: "none" },
  traceId: null,
  ...over,
});
const hop = (number: number, exchangeId: number, at: number): Hop => ({
  number,
  kind: "mcp",
  exchangeId,
  arrows: [],
  at,
});

describe("notes changes on screen", () => {
  it("write instead of append leads with the loss", () => {
    const v = viewOf(change({ before: text("call the dentist\nwater the plants\n"), after: text("buy milk") }));
    expect(v).toMatchObject({ short: "2 notes deleted", headline: "2 notes deleted, 1 added", destructive: true });
  });
  it("binary content is shown as bytes, not diffed", () => {
    const bytes = Uint8Array.from([0xff, 0xfe, 0x00, 0x41]);
    const c = change({
      after: {
        encoding: "base64",
        data: btoa(String.fromCharCode(...bytes)),
        size: 4,
        storedSize: 4,
        truncated: false,
      },
      size: 4,
    });
    expect(viewOf(c)).toMatchObject({ diff: null, short: "4 bytes, not text" });
    expect(hexLines(bytesOf(c) as Uint8Array)).toEqual(["ff fe 00 41"]);
  });
  it("deleted, replaced by a directory, too large: each says what happened", () => {
    expect(viewOf(change({ event: "deleted", after: null })).headline).toBe("the file was deleted");
    expect(
      viewOf(change({ event: "not-a-file", after: null, detail: "the notes file was replaced by a directory" }))
        .headline,
    ).toBe("the notes file was replaced by a directory");
    expect(
      viewOf(
        change({
          event: "too-large",
          after: null,
          size: 2_000_000,
          detail: "2000000 bytes, over the MCP server's limit (NOTES_MAX_BYTES)",
        }),
      ).short,
    ).toBe("over the size limit");
  });
  it("in a replay, only the changes made by the moment on screen are shown", () => {
    const cs = [change({ id: 1, at: 1010 }), change({ id: 2, at: 1500 })];
    expect(changesAt(cs, 1000, null).map((c) => c.id)).toEqual([1, 2]);
    expect(changesAt(cs, 1000, 100).map((c) => c.id)).toEqual([1]);
  });
  it("sits on its tools/call's hop; an uncaused one on the hop it happened during; a call not on screen hides it", () => {
    const hops = [hop(1, 10, 0), hop(2, 11, 20), hop(5, 12, 40)];
    expect(
      hopOfChange(hops, change({ cause: { kind: "tool-call", traceId: "t", exchangeId: 12 }, at: 41 }))?.number,
    ).toBe(5);
    expect(hopOfChange(hops, change({ at: 30 }))?.number).toBe(2);
    expect(
      hopOfChange(hops.slice(0, 2), change({ cause: { kind: "tool-call", traceId: "t", exchangeId: 12 } })),
    ).toBeUndefined();
  });

  it("lane marks: each on its hop; a change with no call beyond where a live trace has got to waits", () => {
    const hops = [hop(1, 10, 0), hop(2, 11, 20), hop(5, 12, 40)];
    const called = change({ id: 1, cause: { kind: "tool-call", traceId: "t", exchangeId: 12 }, at: 45 });
    const byHand = change({ id: 2, at: 60 });
    expect(laneMarks(hops, [called, byHand]).map((m) => [m.c.id, m.hop.number])).toEqual([
      [1, 5],
      [2, 5],
    ]);
    // A live trace (a replay stores its changes up front) at 50: the hand edit at 60 has not happened yet.
    expect(laneMarks(hops, [called, byHand], 50).map((m) => m.c.id)).toEqual([1]);
    expect(laneMarks(hops.slice(0, 2), [called, byHand], 70).map((m) => [m.c.id, m.hop.number])).toEqual([[2, 2]]);
  });
});
