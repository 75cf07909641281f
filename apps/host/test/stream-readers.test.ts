import { describe, expect, it } from "vitest";
import { ndjsonLines } from "../src/ndjson-lines";
import { sseMessages } from "../src/sse-messages";

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

describe("sseMessages", () => {
  it("reads events split anywhere, with CRLF, comments and multi-line data", async () => {
    const events = await collect(
      sseMessages(
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
    expect(await collect(sseMessages(body('data:{"id":2}')))).toEqual([{ id: 2 }]);
  });

  it("throws on an event that is not JSON instead of skipping it", async () => {
    await expect(collect(sseMessages(body("data: {oops\n\n")))).rejects.toThrow(/not JSON: \{oops/);
  });
});

describe("ndjsonLines", () => {
  it("reads lines split across chunks and a last line without newline", async () => {
    expect(await collect(ndjsonLines(body('{"a":', '1}\n{"b":2}\n\n{"c"', ":3}")))).toEqual([
      { a: 1 },
      { b: 2 },
      { c: 3 },
    ]);
  });

  it("throws on a line that is not JSON", async () => {
    await expect(collect(ndjsonLines(body('{"a":1}\nnope\n')))).rejects.toThrow(/not JSON: nope/);
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
    expect(await collect(ndjsonLines(stream))).toEqual([{ t: "é" }]);
  });
});
