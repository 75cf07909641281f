/** The live feed over a real WebSocket: snapshot, ordered events, resume, origin check, slow clients. */
import http from "node:http";
import net from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { ExchangeSchema, TraceSchema } from "@hopscope/shared/trace/schemas";
import {
  FeedClient,
  closeAll,
  eventually,
  getJson,
  request,
  startRecorder,
  startUpstream,
  type TestRecorder,
  type Upstream,
} from "./helpers";
import { FrameRing } from "../src/main/live/ring";
import { ParkedFrames } from "../src/recording/parked-frames";

let rec: TestRecorder | null = null;
let up: Upstream | null = null;
const clients: FeedClient[] = [];
afterEach(() => closeAll(...clients.splice(0), rec, up));

function client(url: string, headers?: Record<string, string>): FeedClient {
  const c = new FeedClient(url, headers);
  clients.push(c);
  return c;
}

async function jsonUpstream(): Promise<Upstream> {
  return startUpstream((_req, res) => {
    res.writeHead(200, { "Content-Type": "application/x-ndjson" });
    res.write('{"model":"m","created_at":"t","message":{"role":"assistant","content":"Hi"},"done":false}\n');
    res.end(
      '{"model":"m","created_at":"t","message":{"role":"assistant","content":""},"done":true,"done_reason":"stop"}\n',
    );
  });
}

const chat = (r: TestRecorder, content: string) =>
  request(`${r.taps.model.url}/api/chat`, {
    method: "POST",
    body: JSON.stringify({ model: "m", messages: [{ role: "user", content }] }),
  });

describe("live feed", () => {
  it("sends a snapshot, then started, chunks, completed and trace.updated in order with increasing seq", async () => {
    up = await jsonUpstream();
    rec = await startRecorder({ model: up.url });
    const c = client(rec.wsUrl);
    await c.until((f) => f.length >= 1, "snapshot");
    expect(c.frames[0]).toMatchObject({ type: "snapshot", traces: [], inFlight: [] });
    await chat(rec, "hello");
    await c.until((f) => f.some((x) => x.type === "trace.updated"), "trace.updated");
    const types = c.frames.map((f) => f.type);
    expect(types.slice(0, 5)).toEqual([
      "snapshot",
      "exchange.started",
      "exchange.chunk",
      "exchange.chunk",
      "exchange.completed",
    ]);
    expect(types).toContain("trace.updated");
    const seqs = c.frames.slice(1).map((f) => f.seq);
    expect(seqs).toEqual(seqs.map((_, i) => seqs[0]! + i));
    const chunk = c.frames.find((f) => f.type === "exchange.chunk");
    expect(chunk?.type === "exchange.chunk" && chunk.text).toContain('"content":"Hi"');
    const updated = c.frames.find((f) => f.type === "trace.updated");
    expect(updated?.type === "trace.updated" && updated.trace).toMatchObject({ name: "hello", exchangeCount: 1 });
  });

  it("shows an exchange still in flight: in the snapshot, in its trace and as an exchange", async () => {
    let stream: http.ServerResponse | null = null;
    up = await startUpstream((_req, res) => {
      res.writeHead(200, { "Content-Type": "application/x-ndjson" });
      res.write('{"model":"m","created_at":"t","message":{"role":"assistant","content":"Hel"},"done":false}\n');
      stream = res;
    });
    rec = await startRecorder({ model: up.url });
    const req = http.request(`${rec.taps.model.url}/api/chat`, { method: "POST" }, (res) => res.resume());
    req.end('{"model":"m","messages":[{"role":"user","content":"slow one"}]}');
    await eventually(async () => stream !== null, "the upstream to start answering");
    const c = client(rec.wsUrl);
    await c.until((f) => f.length >= 1, "snapshot");
    const snap = c.frames[0]!;
    expect(snap.type === "snapshot" && snap.inFlight.map((e) => [e.url, e.state])).toEqual([
      ["/api/chat", "streaming"],
    ]);
    const ex = snap.type === "snapshot" ? snap.inFlight[0]! : null;
    const live = ExchangeSchema.parse((await getJson(`${rec.url}/api/exchanges/${ex!.id}`)).body);
    expect(live.state).toBe("streaming");
    expect(live.responseBody?.data).toContain('"Hel"');
    // Nothing of this trace is stored yet; the API builds it from what is in flight.
    const trace = TraceSchema.parse((await getJson(`${rec.url}/api/traces/${ex!.traceId}`)).body);
    expect(trace).toMatchObject({ name: "POST /api/chat", source: "live", exchangeCount: 1 });
    expect(trace.exchanges[0]!.classification).toMatchObject({
      kind: "model.chat",
      messageCount: 1,
      stream: true,
      toolCalls: [],
    });
    stream!.end('{"model":"m","created_at":"t","message":{"role":"assistant","content":"lo"},"done":true}\n');
    await c.until((f) => f.some((x) => x.type === "exchange.completed"), "completed");
    const done = ExchangeSchema.parse((await getJson(`${rec.url}/api/exchanges/${ex!.id}`)).body);
    expect(done).toMatchObject({ state: "complete", chunkCount: 2 });
  });

  it("lets a reconnecting client resume from the last seq it saw", async () => {
    up = await jsonUpstream();
    rec = await startRecorder({ model: up.url });
    const a = client(rec.wsUrl);
    await a.opened();
    // What happens while a client's snapshot is built is in the snapshot, not in frames after it: ask once it came.
    await a.until((f) => f.some((x) => x.type === "snapshot"), "snapshot");
    await chat(rec, "first");
    await a.until((f) => f.some((x) => x.type === "trace.updated"), "first trace");
    const last = a.frames.at(-1)!.seq;
    a.close();
    await chat(rec, "second");
    const b = client(rec.wsUrl);
    await b.opened();
    await b.until((f) => f.length >= 1, "snapshot");
    const current = b.frames[0]!.seq;
    expect(current).toBeGreaterThan(last);
    b.ws.send(JSON.stringify({ type: "resume", since: last }));
    // Live frames may arrive between the snapshot and the resume answer; a client tolerates duplicates.
    const seen = () => new Set(b.frames.slice(1).map((f) => f.seq));
    await b.until(
      () => Array.from({ length: current - last }, (_, i) => last + 1 + i).every((s) => seen().has(s)),
      "the missed frames",
    );
    expect([...seen()].filter((s) => s <= last)).toEqual([]);
    expect(b.frames.slice(1).some((f) => f.type === "exchange.started" && f.exchange.url === "/api/chat")).toBe(true);
  });

  it("answers an unknown client frame with an error frame saying what to send", async () => {
    rec = await startRecorder({});
    const c = client(rec.wsUrl);
    await c.opened();
    c.ws.send('{"type":"subscribe"}');
    await c.until((f) => f.some((x) => x.type === "error"), "error frame");
    const err = c.frames.find((f) => f.type === "error");
    expect(err?.type === "error" && err.message).toContain("type");
  });

  it("refuses foreign origins and other paths, and accepts loopback origins", async () => {
    rec = await startRecorder({});
    const status = (url: string, origin?: string) =>
      new Promise<number>((resolve, reject) => {
        const ws = new WebSocket(url, origin ? { origin } : {});
        ws.on("unexpected-response", (_req, res) => {
          resolve(res.statusCode ?? 0);
          ws.terminate();
        });
        ws.on("open", () => {
          resolve(101);
          ws.terminate();
        });
        ws.on("error", (err) => (err.message.includes("Unexpected server response") ? undefined : reject(err)));
      });
    expect(await status(rec.wsUrl, "http://evil.example")).toBe(403);
    expect(await status(rec.wsUrl.replace("/ws", "/other"))).toBe(404);
    expect(await status(rec.wsUrl, "http://localhost:5173")).toBe(101);
    expect(await status(rec.wsUrl, rec.url)).toBe(101);
  });

  it("drops a client that never reads while another client still gets every frame", async () => {
    let stream: http.ServerResponse | null = null;
    up = await startUpstream((_req, res) => {
      res.writeHead(200, { "Content-Type": "application/x-ndjson" });
      stream = res;
    });
    rec = await startRecorder({ model: up.url }, { wsMaxBufferedBytes: 1024 * 1024 });
    const good = client(rec.wsUrl);
    await good.until((f) => f.length >= 1, "snapshot");
    // The stuck client: completes the WebSocket handshake, then never reads another byte.
    const stuck = net.connect(rec.port, "127.0.0.1");
    await new Promise<void>((resolve) => {
      stuck.once("data", () => {
        stuck.pause();
        resolve();
      });
      stuck.write(
        `GET /ws HTTP/1.1\r\nHost: 127.0.0.1:${rec!.port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
          "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n",
      );
    });
    expect(rec.liveClients()).toBe(2);
    const req = http.request(`${rec.taps.model.url}/api/chat`, { method: "POST" }, (res) => res.resume());
    req.end('{"model":"m","messages":[]}');
    await good.until((f) => f.some((x) => x.type === "exchange.started"), "started");
    await eventually(async () => stream !== null, "the upstream to answer");
    const line = `${JSON.stringify({ message: { role: "assistant", content: "x".repeat(60_000) }, done: false })}\n`;
    let sent = 0;
    // The threshold is well above one step's frames: bytes already handed to the kernel count as buffered
    // until their write completes, so a reading client may briefly show a few hundred KB.
    // One chunk at a time, waiting for the reading client each time: it never falls behind, the stuck one does.
    for (let step = 0; step < 2000 && rec.liveClients() === 2; step++) {
      stream!.write(line);
      sent += 1;
      await good.until((f) => f.filter((x) => x.type === "exchange.chunk").length >= sent, `chunk ${sent}`);
    }
    expect(rec.liveClients()).toBe(1);
    expect(good.ws.readyState).toBe(WebSocket.OPEN);
    stream!.end('{"message":{"role":"assistant","content":""},"done":true}\n');
    await good.until((f) => f.some((x) => x.type === "exchange.completed"), "completed");
    const seqs = good.frames.slice(1).map((f) => f.seq);
    expect(seqs).toEqual(seqs.map((_, i) => seqs[0]! + i));
    const completed = good.frames.find((f) => f.type === "exchange.completed");
    expect(completed?.type === "exchange.completed" && completed.exchange.chunkCount).toBe(
      good.frames.filter((f) => f.type === "exchange.chunk").length,
    );
    stuck.destroy();
  });
});

describe("heartbeat", () => {
  it("drops a client that stops answering pings", async () => {
    rec = await startRecorder({}, {}, { deps: { heartbeatMs: 200 } });
    const answering = client(rec.wsUrl);
    await answering.opened();
    const silent = net.connect(rec.port, "127.0.0.1");
    await new Promise<void>((resolve) => {
      silent.once("data", () => resolve());
      silent.write(
        `GET /ws HTTP/1.1\r\nHost: 127.0.0.1:${rec!.port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
          "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n",
      );
    });
    expect(rec.liveClients()).toBe(2);
    await eventually(async () => rec!.liveClients() === 1, "the silent client to be dropped");
    expect(answering.ws.readyState).toBe(WebSocket.OPEN);
    silent.destroy();
  });
});

describe("frame ring", () => {
  it("returns the frames after a seq, or null when they have been dropped", () => {
    const ring = new FrameRing(3);
    for (let seq = 1; seq <= 5; seq++) ring.push({ seq, data: `f${seq}`, size: 2 });
    expect(ring.since(3, 5)).toEqual(["f4", "f5"]);
    expect(ring.since(2, 5)).toEqual(["f3", "f4", "f5"]);
    expect(ring.since(1, 5)).toBeNull();
    expect(ring.since(5, 5)).toEqual([]);
  });

  it("drops old frames when over its byte budget", () => {
    const ring = new FrameRing(100, 10);
    ring.push({ seq: 1, data: "123456", size: 6 });
    ring.push({ seq: 2, data: "123456", size: 6 });
    expect(ring.since(0, 2)).toBeNull();
    expect(ring.since(1, 2)).toEqual(["123456"]);
  });

  it("builds a lazy frame only when a resume reads it, and only once", () => {
    const ring = new FrameRing();
    let built = 0;
    ring.push({ seq: 1, size: 10, build: () => `lazy${++built}` });
    ring.push({ seq: 2, data: "eager", size: 5 });
    expect(built).toBe(0);
    expect(ring.since(0, 2)).toEqual(["lazy1", "eager"]);
    expect(ring.since(0, 2)).toEqual(["lazy1", "eager"]);
    expect(built).toBe(1);
  });

  it("keeps parked frames unserialised within its bounds, serialises them on demand, and says which are gone", () => {
    const parked = new ParkedFrames(3, 1000);
    const frame = (traceId: string) => ({ type: "trace.deleted" as const, traceId });
    const parks = ["a", "b", "c", "d"].map((id) => parked.park(frame(id), 10));
    expect(parks).toEqual([1, 2, 3, 4]);
    // Over the count bound the oldest is dropped: a resume needing it gets a snapshot instead.
    expect(parked.serialised(parks)).toEqual([
      null,
      '{"type":"trace.deleted","traceId":"b"}',
      '{"type":"trace.deleted","traceId":"c"}',
      '{"type":"trace.deleted","traceId":"d"}',
    ]);
    // Over the byte bound too (but the newest frame is always kept).
    parked.park(frame("e"), 995);
    expect(parked.serialised([4, 5])).toEqual([null, '{"type":"trace.deleted","traceId":"e"}']);
  });

  it("does not serve a parked frame that was never fetched as if it were built", () => {
    const ring = new FrameRing();
    ring.push({ seq: 1, size: 10, park: 7 });
    expect(ring.since(0, 1)).toBeNull();
    expect(ring.entriesSince(0, 1)).toEqual([{ seq: 1, size: 10, park: 7 }]);
  });
});
