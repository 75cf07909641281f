/**
 * The idle-close race (tap/response-queue.ts): an upstream that closes an idle keep-alive connection just as
 * the next request is written to it. As browsers and undici do, the tap sends that request again on a fresh
 * connection, once, when the link had served a request before, nothing of the response had arrived, and the
 * whole request is still held (up to MAX_BODY_BYTES); the recorder sees one exchange. The race is made
 * deterministic: the upstream reads the 2nd request on a connection and destroys the socket without answering.
 */
import http from "node:http";
import type net from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { eventually, startRecorder, type TestRecorder } from "./helpers";
import { keptConnection, rawServer, recorded } from "./relay-support";

let rec: TestRecorder | null = null;
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await rec?.close();
  for (const f of closers.splice(0)) await f();
});

interface Racing {
  url: string;
  connections: number;
  /** Every request that reached it: `<connection number>:<its request number on it> <method> <url>`. */
  seen: string[];
}

/**
 * An HTTP upstream that answers (echoing the method, the body and its Transfer-Encoding) and destroys the
 * connection on the request numbered `dropAt` on it once its head is read, unanswered; `dropFirstAfter`: also every connection's
 * first request once that many connections were opened (so a retry fails too).
 */
async function racingUpstream(dropAt = 2, dropFirstAfter = Infinity): Promise<Racing> {
  const state: Racing = { url: "", connections: 0, seen: [] };
  const perSocket = new Map<net.Socket, { n: number; count: number }>();
  const server = http.createServer((req, res) => {
    const conn = perSocket.get(req.socket) as { n: number; count: number };
    conn.count++;
    state.seen.push(`${conn.n}:${conn.count} ${req.method} ${req.url}`);
    // Dropped as soon as its head is read, the body (if any) unread.
    if (conn.count === dropAt || (conn.count === 1 && conn.n > dropFirstAfter)) return void req.socket.destroy();
    const parts: Buffer[] = [];
    req.on("data", (c: Buffer) => parts.push(c));
    req.on("end", () => {
      const text = JSON.stringify({
        method: req.method,
        te: req.headers["transfer-encoding"] ?? null,
        body: Buffer.concat(parts).toString(),
      });
      res.writeHead(200, { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(text) });
      res.end(text);
    });
  });
  server.on("connection", (s: net.Socket) => perSocket.set(s, { n: ++state.connections, count: 0 }));
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  state.url = `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`;
  closers.push(async () => {
    server.closeAllConnections();
    await new Promise<void>((r) => server.close(() => r()));
  });
  return state;
}

const GET = "GET /api/tags HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n";
const post = (body: string) =>
  `POST /api/chat HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`;

/** The JSON bodies of the responses a connection read, in order. */
function bodiesOf(text: string): unknown[] {
  return [...text.matchAll(/\r\n\r\n(\{[^\r]*?\})(?=HTTP\/1\.1 |$)/g)].map((m) => JSON.parse(m[1] as string));
}

describe("a request written on an idle link the upstream is closing", () => {
  it("is sent again on a fresh connection, once, and recorded as one exchange", async () => {
    const up = await racingUpstream();
    rec = await startRecorder({ model: up.url });
    const c = keptConnection(rec.taps.model.port);
    c.socket.write(GET);
    await eventually(async () => c.answers() === 1, "the first answer");
    c.socket.write(GET);
    await eventually(async () => c.answers() === 2, "the second answer, after the retry");
    c.socket.destroy();
    expect(c.text()).not.toContain("502");
    // The 2nd request reached the first connection (dropped there) and then a second one.
    expect(up.seen).toEqual(["1:1 GET /api/tags", "1:2 GET /api/tags", "2:1 GET /api/tags"]);
    const ex = await recorded(rec, 2);
    expect(ex.map((e) => `${e.status} ${e.state}`)).toEqual(["200 complete", "200 complete"]);
  });

  it("sends the same body again, with Content-Length and chunked", async () => {
    const up = await racingUpstream();
    rec = await startRecorder({ model: up.url });
    const c = keptConnection(rec.taps.model.port);
    c.socket.write(post('{"turn":1}'));
    await eventually(async () => c.answers() === 1, "the first answer");
    c.socket.write(post('{"turn":2,"text":"Add buy milk to my notes"}'));
    await eventually(async () => c.answers() === 2, "the retried POST's answer");
    // A chunked body, its second chunk written after the retry began: it goes on the fresh connection.
    c.socket.write(
      'POST /api/chat HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n5\r\n{"tur\r\n',
    );
    await eventually(
      async () => up.seen.length === 5,
      `the chunked request dropped on the 2nd connection and sent on a 3rd (${up.seen.join(", ")})`,
    );
    await new Promise((r) => setTimeout(r, 50));
    c.socket.write('5\r\nn":3}\r\n0\r\n\r\n');
    await eventually(async () => c.answers() === 3, "the chunked POST's answer");
    c.socket.destroy();
    expect(bodiesOf(c.text())).toEqual([
      { method: "POST", te: null, body: '{"turn":1}' },
      { method: "POST", te: null, body: '{"turn":2,"text":"Add buy milk to my notes"}' },
      { method: "POST", te: "chunked", body: '{"turn":3}' },
    ]);
    expect(up.seen.map((s) => s.split(" ")[0])).toEqual(["1:1", "1:2", "2:1", "2:2", "3:1"]);
    const ex = await recorded(rec, 3);
    expect(ex.map((e) => `${e.status} ${e.state} ${e.requestBody?.data}`)).toEqual([
      '200 complete {"turn":1}',
      '200 complete {"turn":2,"text":"Add buy milk to my notes"}',
      '200 complete {"turn":3}',
    ]);
  });

  it("is not sent again when its body is larger than what the tap keeps (502 as before)", async () => {
    const up = await racingUpstream();
    rec = await startRecorder({ model: up.url }, { maxBodyBytes: 16 });
    const c = keptConnection(rec.taps.model.port);
    c.socket.write(post('{"turn":1}'));
    await eventually(async () => c.answers() === 1, "the first answer");
    c.socket.write(post('{"turn":2,"longer than sixteen bytes":true}'));
    await eventually(async () => c.answers("502") === 1, "the 502");
    c.socket.destroy();
    expect(up.seen).toHaveLength(2);
    const ex = await recorded(rec, 2);
    expect(ex.map((e) => `${e.status} ${e.state}`)).toEqual(["200 complete", "502 error"]);
  });

  it("is sent again only once: a fresh connection that fails too gets the client a 502", async () => {
    const up = await racingUpstream(2, 1);
    rec = await startRecorder({ model: up.url });
    const c = keptConnection(rec.taps.model.port);
    c.socket.write(GET);
    await eventually(async () => c.answers() === 1, "the first answer");
    c.socket.write(GET);
    await eventually(async () => c.answers("502") === 1, "the 502 after one retry");
    c.socket.destroy();
    expect(up.seen).toEqual(["1:1 GET /api/tags", "1:2 GET /api/tags", "2:1 GET /api/tags"]);
    const ex = await recorded(rec, 2);
    expect(ex.map((e) => `${e.status} ${e.state}`)).toEqual(["200 complete", "502 error"]);
    expect(ex[1]!.error).toMatch(/ECONNRESET|closed the connection before answering/);
  });

  it("is not sent again when part of the response had arrived (the first request of a connection neither)", async () => {
    let connections = 0;
    const up = await rawServer((s) => {
      const n = ++connections;
      let count = 0;
      s.on("data", () => {
        count++;
        if (count === 1 && n === 1) s.write("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok");
        else s.end("HTTP/1.1 200 OK\r\nContent-Len");
      });
    });
    closers.push(up.close);
    rec = await startRecorder({ model: up.url });
    const c = keptConnection(rec.taps.model.port);
    c.socket.write(GET);
    await eventually(async () => c.answers() === 1, "the first answer");
    c.socket.write(GET);
    await eventually(async () => c.socket.destroyed || c.socket.readableEnded, "the client connection cut");
    expect(connections).toBe(1);
  });
});

describe("a link closed after a 100 Continue", () => {
  it("gets the client its 502 after the 100 (not a cut), and the request is not sent again", async () => {
    let connections = 0;
    const up = await rawServer((s) => {
      connections++;
      let count = 0;
      s.on("data", () => {
        if (++count === 1) s.write("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok");
        else if (count === 2) {
          s.write("HTTP/1.1 100 Continue\r\n\r\n");
          setTimeout(() => s.destroy(), 50);
        }
      });
    });
    closers.push(up.close);
    rec = await startRecorder({ model: up.url });
    const c = keptConnection(rec.taps.model.port);
    c.socket.write(GET);
    await eventually(async () => c.answers() === 1, "the first answer");
    c.socket.write(
      `POST /api/blobs/x HTTP/1.1\r\nHost: 127.0.0.1\r\nExpect: 100-continue\r\nContent-Length: 5\r\n\r\nhello`,
    );
    await eventually(async () => c.answers("502") === 1, "the 502 after the 100");
    expect(c.socket.destroyed).toBe(false);
    c.socket.destroy();
    expect(c.text().indexOf("HTTP/1.1 100 Continue")).toBeLessThan(c.text().indexOf("HTTP/1.1 502 "));
    expect(connections).toBe(1);
    const ex = await recorded(rec, 2);
    expect(ex.map((e) => `${e.status} ${e.state}`)).toEqual(["200 complete", "502 error"]);
  });
});

// The tap also checks for the FIN before writing on an idle link; the window between the FIN and the close
// is one turn of the tap's event loop, too short to hit from here, so this asserts the outcome around it.
describe("an upstream that answers and sends its FIN at once", () => {
  it("gets every next request on a fresh connection, nothing written after its FIN, no 502", async () => {
    let connections = 0;
    const lateRequests: number[] = [];
    // Keep-alive framing, then FIN at once; half-open, so a request written after the FIN would still be read.
    const up = await rawServer(
      (s) => {
        const n = ++connections;
        let answered = false;
        s.on("data", () => {
          if (answered) return void lateRequests.push(n);
          answered = true;
          s.end("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 2\r\n\r\nok");
        });
        s.on("end", () => s.destroy());
      },
      { allowHalfOpen: true },
    );
    closers.push(up.close);
    rec = await startRecorder({ model: up.url });
    const c = keptConnection(rec.taps.model.port);
    for (let i = 1; i <= 5; i++) {
      c.socket.write(GET);
      await eventually(async () => c.answers() === i, `answer ${i}`);
    }
    c.socket.destroy();
    expect(c.text()).not.toContain("502");
    expect(lateRequests).toEqual([]);
    expect(connections).toBe(5);
  });
});
