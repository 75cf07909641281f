import { describe, expect, it } from "vitest";
import { NdjsonLineError, ndjsonStream, parseNdjson } from "../../src/framing/ndjson";
import { parseSse, sseJsonStream } from "../../src/framing/sse";

const strict = { onBadLine: "throw" } as const;
const lenient = { onBadLine: "skip" } as const;

/** A body that arrives in exactly these pieces, as a network may split it. */
function body(...pieces: string[]): ReadableStream<Uint8Array> {
  const enc = new TextEncoder();
  return new ReadableStream({
    start(controller) {
      for (const p of pieces) controller.enqueue(enc.encode(p));
      controller.close();
    },
  });
}

async function collect(gen: AsyncGenerator<unknown>): Promise<unknown[]> {
  const out: unknown[] = [];
  for await (const v of gen) out.push(v);
  return out;
}

describe("sseJsonStream", () => {
  it("reads events split anywhere, with CRLF, comments and multi-line data", async () => {
    const events = await collect(
      sseJsonStream(
        body(
          ": keep-alive\r\n\r\nevent: message\r\nda",
          'ta: {"jsonrpc":"2.0","method":"notifications/progress"}\r',
          '\n\r\ndata: {"jsonrpc":"2.0",\ndata: "id":1,"result":{}}\n\n',
        ),
      ),
    );
    expect(events).toEqual([
      { jsonrpc: "2.0", method: "notifications/progress" },
      { jsonrpc: "2.0", id: 1, result: {} },
    ]);
  });

  it("delivers a last event that has no closing blank line", async () => {
    expect(await collect(sseJsonStream(body('data:{"id":2}')))).toEqual([{ id: 2 }]);
  });

  it("throws on an event that is not JSON instead of skipping it", async () => {
    await expect(collect(sseJsonStream(body("data: {oops\n\n")))).rejects.toThrow(/not JSON: \{oops/);
  });
});

describe("ndjsonStream", () => {
  it("reads lines split across chunks and a last line without newline", async () => {
    expect(await collect(ndjsonStream(body('{"a":', '1}\n{"b":2}\n\n{"c"', ":3}"), strict))).toEqual([
      { a: 1 },
      { b: 2 },
      { c: 3 },
    ]);
  });

  it("strict: throws on a line that is not JSON, naming its number", async () => {
    await expect(collect(ndjsonStream(body('{"a":1}\nnope\n'), strict))).rejects.toThrow(/line 2 is not JSON: nope/);
  });

  it("lenient: skips a line that is not JSON and reads on", async () => {
    expect(await collect(ndjsonStream(body('{"a":1}\nno', 'pe\n{"b":2}'), lenient))).toEqual([{ a: 1 }, { b: 2 }]);
  });

  it("keeps multi-byte characters split between chunks", async () => {
    const bytes = new TextEncoder().encode('{"t":"é"}\n');
    const stream = new ReadableStream<Uint8Array>({
      start(c) {
        c.enqueue(bytes.slice(0, 7));
        c.enqueue(bytes.slice(7));
        c.close();
      },
    });
    expect(await collect(ndjsonStream(stream, strict))).toEqual([{ t: "é" }]);
  });
});

describe("parseNdjson", () => {
  const text = '{"a":1}\n\n{oops\n{"b":2}\n';

  it("strict: throws an NdjsonLineError naming the bad line, never returns the lines around it", () => {
    expect(() => parseNdjson(text, strict)).toThrow(NdjsonLineError);
    expect(() => parseNdjson(text, strict)).toThrow(/NDJSON line 3 is not JSON: \{oops/);
    expect(parseNdjson('{"a":1}\n\n{"b":2}\n', strict)).toEqual([{ a: 1 }, { b: 2 }]);
  });

  it("lenient: skips the bad line and blank lines, keeps the rest in order", () => {
    expect(parseNdjson(text, lenient)).toEqual([{ a: 1 }, { b: 2 }]);
  });

  it("lenient: a line nested deeper than the JSON depth limit is skipped, not a stack overflow", () => {
    expect(parseNdjson(`${"[".repeat(5000)}${"]".repeat(5000)}\n{"c":3}`, lenient)).toEqual([{ c: 3 }]);
  });
});

describe("parseSse", () => {
  it("reads a recorded stream with event names and ids, and does not dispatch an unfinished last event", () => {
    const text = "event: ping\r\nid: 7\r\ndata: a\r\ndata: b\r\n\r\ndata: c\n\ndata: cut";
    expect(parseSse(text)).toEqual([
      { event: "ping", id: "7", data: "a\nb", end: text.indexOf("data: c") },
      { event: "message", id: "7", data: "c", end: text.indexOf("data: cut") },
    ]);
  });
});
