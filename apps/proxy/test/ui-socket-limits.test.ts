/**
 * The UI/API port's socket limits (main/ui-server.ts: HEADERS_TIMEOUT_MS, as on the taps), on real sockets
 * with a short timeout: a slow-header socket gets 408 and closes, a socket that sends nothing closes, and so
 * does a kept-alive one left idle after its answer, each well before node:http's own defaults would close
 * them. The live feed's WebSocket and a long answer (/api/ask streaming the agent's reply with a pause longer
 * than the timeout) are never cut.
 */
import net from "node:net";
import WebSocket from "ws";
import { afterEach, describe, expect, it } from "vitest";
import { eventually, startRecorder, startUpstream, type TestRecorder } from "./helpers";
import { keptConnection } from "./relay-support";

const TIMEOUT_MS = 300;
/** node:http alone closes none of these sooner (keepAliveTimeout 5 s, headersTimeout 60 s, idle never). */
const DEFAULTS_MS = 5_000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const f of closers.splice(0)) await f();
});

/** A recorder with the short timeout; its feed's heartbeat is slowed so a WebSocket stays quiet. */
async function recorder(upstreams: { agent?: string } = {}): Promise<TestRecorder> {
  const rec = await startRecorder(upstreams, { headersTimeoutMs: TIMEOUT_MS }, { deps: { heartbeatMs: 60_000 } });
  closers.push(rec.close);
  return rec;
}

/** Milliseconds from `since` until `socket` closes; throws if it is still open before node:http's defaults. */
function closeTime(socket: net.Socket, since: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const late = setTimeout(() => {
      socket.destroy();
      reject(new Error(`the socket was still open after ${DEFAULTS_MS - 1_000} ms`));
    }, DEFAULTS_MS - 1_000);
    socket.on("close", () => {
      clearTimeout(late);
      resolve(Date.now() - since);
    });
  });
}

/** A socket to the UI port that never sends a byte. */
function silentSocket(port: number): { socket: net.Socket; closed: Promise<number> } {
  const since = Date.now();
  const socket = net.connect(port, "127.0.0.1");
  return { socket, closed: closeTime(socket, since) };
}

describe("the UI/API port's sockets", () => {
  it("a request head sent slowly gets 408 and the socket closes, however often it trickles a byte", async () => {
    const rec = await recorder();
    const c = keptConnection(rec.port);
    // The server may reset the socket as it closes it while the client still writes: that is the close.
    c.socket.on("error", () => undefined);
    const closed = closeTime(c.socket, Date.now());
    let open = true;
    c.socket.on("close", () => (open = false));
    c.socket.write("GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n");
    // One header byte every 50 ms: never idle, never a whole head.
    for (let i = 0; i < 60 && open; i++) {
      await sleep(50);
      if (open) c.socket.write("X");
    }
    const took = await closed;
    expect(c.text()).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n/);
    expect(took).toBeGreaterThanOrEqual(TIMEOUT_MS);
  });

  it("a socket that sends nothing, and a kept-alive one idle after its answer, are closed", async () => {
    const rec = await recorder();
    const silent = silentSocket(rec.port);
    const kept = keptConnection(rec.port);
    kept.socket.write("GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
    await eventually(async () => kept.answers() === 1, "the answer");
    const idle = closeTime(kept.socket, Date.now());
    expect(await silent.closed).toBeGreaterThanOrEqual(TIMEOUT_MS);
    expect(await idle).toBeGreaterThanOrEqual(TIMEOUT_MS - 20);
    expect(kept.answers()).toBe(1);
  });

  it("never closes the live feed's WebSocket, however long it stays quiet", async () => {
    const rec = await recorder();
    const ws = new WebSocket(rec.wsUrl);
    await new Promise((resolve, reject) => {
      ws.once("open", resolve);
      ws.once("error", reject);
    });
    let closed = false;
    ws.on("close", () => (closed = true));
    // The limit is in force meanwhile: a silent socket opened beside it is closed.
    await silentSocket(rec.port).closed;
    await sleep(TIMEOUT_MS * 4);
    expect(closed).toBe(false);
    expect(ws.readyState).toBe(WebSocket.OPEN);
    // Still alive both ways: a ping is answered.
    const pong = new Promise((resolve) => ws.once("pong", resolve));
    ws.ping();
    await pong;
    ws.close();
  });

  it("never cuts a long answer: /api/ask streams a reply that pauses for longer than the timeout", async () => {
    const host = await startUpstream((_req, res) => {
      res.writeHead(200, { "Content-Type": "application/json" });
      res.write('{"reply":"a slow');
      setTimeout(() => res.end(' answer","conversationId":"c1","steps":1,"toolCalls":[]}'), TIMEOUT_MS * 4);
    });
    closers.push(host.close);
    const rec = await recorder({ agent: host.url });
    const res = await fetch(`${rec.url}/api/ask`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: '{"message":"take your time"}',
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ reply: "a slow answer" });
  });
});
