/**
 * The taps' head timeout (HEADERS_TIMEOUT_MS, as node:http's headersTimeout): a client that sends a request
 * head slowly (slowloris) gets 408 and the connection closes, nothing forwarded or recorded; the idle close
 * (5 s) alone never caught it, since each byte counts as activity. Only the head is timed: a body sent
 * slowly and a response that streams for long are not cut.
 */
import { afterEach, describe, expect, it } from "vitest";
import { eventually, startRecorder, startUpstream, traces, type TestRecorder, type Upstream } from "./helpers";
import { keptConnection, recorded } from "./relay-support";

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const f of closers.splice(0)) await f();
});

/** A recorder with a short head timeout in front of `handle`. */
async function tapIn(handle: Parameters<typeof startUpstream>[0]): Promise<{ rec: TestRecorder; up: Upstream }> {
  const up = await startUpstream(handle);
  const rec = await startRecorder({ model: up.url }, { headersTimeoutMs: HEAD_TIMEOUT_MS });
  closers.push(rec.close, up.close);
  return { rec, up };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const HEAD_TIMEOUT_MS = 300;

describe("a request head sent slowly", () => {
  it("gets 408 and the connection closes, however often it trickles a byte; nothing forwarded or recorded", async () => {
    const { rec, up } = await tapIn((_req, res) => res.end("never"));
    const c = keptConnection(rec.taps.model.port);
    let closed = false;
    c.socket.on("close", () => (closed = true));
    const started = Date.now();
    c.socket.write("GET /api/tags HTTP/1.1\r\nHost: 127.0.0.1\r\n");
    // One header byte every 50 ms: never idle, never a whole head.
    for (let i = 0; i < 40 && !closed; i++) {
      await sleep(50);
      if (!closed) c.socket.write("X");
    }
    await eventually(async () => closed, "the connection closed");
    const took = Date.now() - started;
    expect(c.text()).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n/);
    expect(c.text()).toMatch(/\r\nConnection: close\r\n/i);
    expect(took).toBeGreaterThanOrEqual(HEAD_TIMEOUT_MS);
    expect(up.received).toHaveLength(0);
    expect(await traces(rec)).toHaveLength(0);
  });

  it("is timed from its first byte, not from the end of the previous response", async () => {
    const { rec } = await tapIn((_req, res) => res.end("ok"));
    const c = keptConnection(rec.taps.model.port);
    c.socket.write("GET /api/tags HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
    await eventually(async () => c.answers() === 1, "the first answer");
    // Idle on a kept-alive connection for longer than the head timeout (the idle close is 5 s): no 408.
    await sleep(HEAD_TIMEOUT_MS * 2);
    c.socket.write("GET /api/ps HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
    await eventually(async () => c.answers() === 2, "the second answer");
    c.socket.destroy();
    expect(c.text()).not.toContain(" 408 ");
  });
});

describe("what is not timed", () => {
  it("a body sent slowly for longer than the head timeout arrives whole", async () => {
    const { rec } = await tapIn((_req, res, body) => res.end(`got ${body.toString()}`));
    const c = keptConnection(rec.taps.model.port);
    const body = '{"slow":"body"}';
    c.socket.write(
      `POST /api/chat HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`,
    );
    for (const ch of body) {
      await sleep(60);
      c.socket.write(ch);
    }
    await eventually(async () => c.text().endsWith(`got ${body}`), "the answer to the whole body");
    c.socket.destroy();
    const [ex] = await recorded(rec, 1);
    expect(ex).toMatchObject({ status: 200, state: "complete" });
    expect(ex!.requestBody?.data).toBe(body);
  });

  it("a response that streams for longer than the head timeout is not cut", async () => {
    const { rec } = await tapIn((_req, res) => {
      res.writeHead(200, { "Content-Type": "application/x-ndjson" });
      let n = 0;
      const t = setInterval(() => {
        res.write(`{"n":${++n}}\n`);
        if (n === 8) {
          clearInterval(t);
          res.end();
        }
      }, 100);
    });
    const c = keptConnection(rec.taps.model.port);
    c.socket.write(`GET /api/pull HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`);
    await eventually(
      async () => c.text().includes('{"n":8}') && c.text().endsWith("0\r\n\r\n"),
      "the whole stream",
      400,
    );
    c.socket.destroy();
    expect(c.text()).not.toContain(" 408 ");
    const [ex] = await recorded(rec, 1);
    expect(ex).toMatchObject({ status: 200, state: "complete" });
  });
});
