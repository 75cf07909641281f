/**
 * The taps as byte relays (tap/request-relay.ts, tap/response-queue.ts): HTTP/1.1 framing on a client
 * connection that node:http used to do for them — pipelining, chunked request bodies, HEAD, 100-continue, bodies that end with the
 * connection, an upstream that closes an idle connection, Connection: close, malformed requests,
 * backpressure — each against real sockets.
 */
import http from "node:http";
import net from "node:net";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import {
  closeAll,
  eventually,
  startRecorder,
  startUpstream,
  traces,
  type TestRecorder,
  type Upstream,
} from "./helpers";
import { raw, recorded } from "./relay-support";

let rec: TestRecorder | null = null;
let up: Upstream | null = null;
const extra: (() => Promise<void>)[] = [];
afterEach(async () => {
  await closeAll(rec, up);
  for (const f of extra.splice(0)) await f();
});

const JSON_HEAD = "Host: 127.0.0.1\r\nContent-Type: application/json\r\n";

describe("framing on a client connection", () => {
  it("answers pipelined requests in order on one connection, a HEAD without a body, and records each", async () => {
    up = await startUpstream((req, res, body) => {
      const text = `${req.method} ${req.url} ${body.toString()}`;
      res.writeHead(200, { "Content-Type": "text/plain", "Content-Length": Buffer.byteLength(text) });
      res.end(req.method === "HEAD" ? undefined : text);
    });
    rec = await startRecorder({ model: up.url });
    const three =
      `POST /a HTTP/1.1\r\n${JSON_HEAD}Content-Length: 7\r\n\r\n{"a":1}` +
      `HEAD /b HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n` +
      `GET /c HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`;
    const { text } = await raw(rec.taps.model.port, three, (t) => t.includes("GET /c "));
    const answers = text.split("HTTP/1.1 200 OK").slice(1);
    expect(answers).toHaveLength(3);
    expect(answers[0]).toMatch(/POST \/a \{"a":1\}$/);
    // HEAD: the upstream's Content-Length for the body it would send, and no body.
    expect(answers[1]).toMatch(/Content-Length: 8\r\n(.*\r\n)*\r\n$/i);
    expect(answers[2]).toMatch(/GET \/c $/);
    const ex = await recorded(rec, 3);
    expect(ex.map((e) => `${e.method} ${e.url} ${e.status} ${e.state}`)).toEqual([
      "POST /a 200 complete",
      "HEAD /b 200 complete",
      "GET /c 200 complete",
    ]);
    expect(ex[0]!.responseBody?.data).toBe('POST /a {"a":1}');
    expect(ex[1]!.responseSize).toBe(0);
  });

  it("forwards a chunked request body chunked (Transfer-Encoding kept) and records it de-chunked", async () => {
    up = await startUpstream((req, res, body) => {
      res.writeHead(200, { "Content-Type": "application/json" });
      res.end(JSON.stringify({ te: req.headers["transfer-encoding"] ?? null, got: body.toString() }));
    });
    rec = await startRecorder({ mcp: up.url });
    const port = rec.taps.mcp.port;
    const body = '{"jsonrpc":"2.0","id":1,"method":"tools/list"}';
    const answer = await new Promise<string>((resolve, reject) => {
      const req = http.request(
        { host: "127.0.0.1", port, path: "/mcp", method: "POST", headers: { "content-type": "application/json" } },
        (res) => {
          let t = "";
          res.on("data", (c: Buffer) => (t += c.toString()));
          res.on("end", () => resolve(t));
        },
      );
      req.on("error", reject);
      // No Content-Length: node:http sends it chunked, one chunk per write.
      req.write(body.slice(0, 10));
      setTimeout(() => req.end(body.slice(10)), 50);
    });
    expect(JSON.parse(answer)).toEqual({ te: "chunked", got: body });
    const [ex] = await recorded(rec, 1);
    expect(ex!.requestBody?.data).toBe(body);
    expect(ex!.requestSize).toBe(body.length);
    expect(ex!.requestHeaders.find(([k]) => k.toLowerCase() === "transfer-encoding")?.[1]).toBe("chunked");
  });

  it("relays 100 Continue to a client that waits for it, and records the final response", async () => {
    up = await startUpstream((_req, res, body) => {
      res.writeHead(201, { "Content-Type": "text/plain" });
      res.end(`got ${body.length}`);
    });
    rec = await startRecorder({ model: up.url });
    const port = rec.taps.model.port;
    const events: string[] = [];
    const answer = await new Promise<string>((resolve, reject) => {
      const req = http.request(
        {
          host: "127.0.0.1",
          port,
          path: "/api/blobs/x",
          method: "POST",
          headers: { Expect: "100-continue", "Content-Length": "5" },
        },
        (res) => {
          events.push(`response ${res.statusCode}`);
          let t = "";
          res.on("data", (c: Buffer) => (t += c.toString()));
          res.on("end", () => resolve(t));
        },
      );
      req.on("continue", () => {
        events.push("continue");
        req.end("hello");
      });
      req.on("error", reject);
      req.flushHeaders();
    });
    expect(events).toEqual(["continue", "response 201"]);
    expect(answer).toBe("got 5");
    const [ex] = await recorded(rec, 1);
    expect(ex).toMatchObject({ status: 201, state: "complete" });
    expect(ex!.requestBody?.data).toBe("hello");
  });

  it("relays a response whose body ends with the upstream's connection, whole, and records it complete", async () => {
    const server = net.createServer((s) => {
      s.once("data", () =>
        s.end("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nConnection: close\r\n\r\nuntil the end"),
      );
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    extra.push(() => new Promise((r) => server.close(() => r())));
    rec = await startRecorder({ model: `http://127.0.0.1:${(server.address() as AddressInfo).port}` });
    const { text, closed } = await raw(rec.taps.model.port, "GET /api/version HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
    expect(closed).toBe(true);
    expect(text.endsWith("\r\n\r\nuntil the end")).toBe(true);
    const [ex] = await recorded(rec, 1);
    expect(ex).toMatchObject({ status: 200, state: "complete" });
    expect(ex!.responseBody?.data).toBe("until the end");
  });

  it("opens a new upstream connection for the next request when the upstream closed an idle one", async () => {
    let connections = 0;
    // Answers one request per connection with keep-alive framing, then closes it once idle (50 ms later).
    const server = net.createServer((c) => {
      connections++;
      c.once("data", () => {
        c.write("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 2\r\n\r\nok");
        setTimeout(() => c.end(), 50);
      });
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    extra.push(() => new Promise((r) => server.close(() => r())));
    rec = await startRecorder({ model: `http://127.0.0.1:${(server.address() as AddressInfo).port}` });
    const s = net.connect(rec.taps.model.port, "127.0.0.1");
    let text = "";
    s.on("data", (d: Buffer) => (text += d.toString()));
    const get = "GET /api/tags HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n";
    s.write(get);
    await eventually(async () => text.split("HTTP/1.1 200").length === 2, "the first answer");
    await new Promise((r) => setTimeout(r, 300));
    s.write(get);
    await eventually(
      async () => text.split("HTTP/1.1 200").length === 3,
      "the second answer, on the same client connection",
    );
    s.destroy();
    expect(connections).toBe(2);
    const ex = await recorded(rec, 2);
    expect(ex.map((e) => e.state)).toEqual(["complete", "complete"]);
  });

  it("closes the connection after a response when the client asked for it", async () => {
    up = await startUpstream((_req, res) => res.end("bye"));
    rec = await startRecorder({ model: up.url });
    const { text, closed } = await raw(
      rec.taps.model.port,
      "GET /api/ps HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n",
    );
    expect(closed).toBe(true);
    expect(text).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    // The upstream was told too, so the answer the client reads says so itself.
    expect(text).toMatch(/\r\nConnection: close\r\n/i);
    expect(up.received[0]!.headers.find(([k]) => k.toLowerCase() === "connection")?.[1]).toBe("close");
  });

  it("answers a malformed request 400 and closes, forwarding and recording nothing", async () => {
    up = await startUpstream((_req, res) => res.end("never"));
    rec = await startRecorder({ model: up.url });
    const { text, closed } = await raw(rec.taps.model.port, "GET /x HTTP/1.1\r\nHost: 127.0.0.1\r\nBad Header\r\n\r\n");
    expect(closed).toBe(true);
    expect(text).toBe("HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n");
    const smuggle = await raw(
      rec.taps.model.port,
      `POST /x HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n`,
    );
    expect(smuggle.text).toMatch(/^HTTP\/1\.1 400 /);
    // A refusal followed by garbage: the refusal is the one answer.
    const refused = await raw(rec.taps.model.port, "GET /x HTTP/1.1\r\nHost: evil.example\r\n\r\nGARBAGE\r\n\r\n");
    expect(refused.closed).toBe(true);
    expect(refused.text).toMatch(/^HTTP\/1\.1 403 Forbidden\r\n/);
    expect(refused.text.split("HTTP/1.1 ")).toHaveLength(2);
    expect(up.received).toHaveLength(0);
    expect(await traces(rec)).toHaveLength(0);
  });

  it("forwards a request that asks to upgrade as a plain request (Upgrade is hop-by-hop)", async () => {
    up = await startUpstream((req, res) => {
      const seen = JSON.stringify({ upgrade: req.headers.upgrade ?? null, connection: req.headers.connection ?? null });
      res.writeHead(200, { "Content-Type": "application/json", "Content-Length": seen.length });
      res.end(seen);
    });
    rec = await startRecorder({ model: up.url });
    const { text } = await raw(
      rec.taps.model.port,
      "GET /api/tags HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n\r\n",
      (t) => t.endsWith("}"),
    );
    expect(text).toMatch(/^HTTP\/1\.1 200 OK/);
    expect(text.slice(text.indexOf("{"))).toBe('{"upgrade":null,"connection":null}');
  });
});

describe("answers of the tap's own, in turn", () => {
  it("a refused request pipelined behind one in flight is answered after that one's response, then the connection closes", async () => {
    up = await startUpstream((_req, res) => setTimeout(() => res.end('{"jsonrpc":"2.0","id":1,"result":{}}'), 200));
    rec = await startRecorder({ mcp: up.url });
    const call = '{"jsonrpc":"2.0","id":1,"method":"tools/list"}';
    const two =
      `POST /mcp HTTP/1.1\r\n${JSON_HEAD}Content-Length: ${call.length}\r\n\r\n${call}` +
      `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: text/plain\r\nContent-Length: ${call.length}\r\n\r\n${call}`;
    const { text, closed } = await raw(rec.taps.mcp.port, two);
    expect(closed).toBe(true);
    expect(text.indexOf("HTTP/1.1 200 OK")).toBe(0);
    expect(text.indexOf("HTTP/1.1 415 ")).toBeGreaterThan(text.indexOf('"result":{}'));
    expect(up.received).toHaveLength(1);
    const [ex] = await recorded(rec, 1);
    expect(ex).toMatchObject({ status: 200, state: "complete" });
  });

  it("relays both ways unparsed once the upstream switches protocols (101)", async () => {
    const server = net.createServer((c) => {
      c.once("data", () => {
        c.write("HTTP/1.1 101 Switching Protocols\r\nUpgrade: echo\r\nConnection: Upgrade\r\n\r\n");
        c.on("data", (d: Buffer) => c.write(d));
      });
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    extra.push(() => new Promise((r) => server.close(() => r())));
    rec = await startRecorder({ model: `http://127.0.0.1:${(server.address() as AddressInfo).port}` });
    const s = net.connect(rec.taps.model.port, "127.0.0.1");
    let text = "";
    s.on("data", (d: Buffer) => (text += d.toString("latin1")));
    s.write("GET /x HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
    await eventually(async () => text.includes("\r\n\r\n"), "the 101");
    s.write(Buffer.from("not HTTP at all \x00\xff", "latin1"));
    await eventually(async () => text.endsWith("not HTTP at all \x00\xff"), "the echo through the tunnel");
    s.destroy();
    const [ex] = await recorded(rec, 1);
    expect(ex).toMatchObject({ status: 101, state: "complete" });
  });
});

describe("an upstream that hangs up", () => {
  async function hangingUp(answer: string) {
    const server = net.createServer((c) => c.once("data", () => c.end(answer)));
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    extra.push(() => new Promise((r) => server.close(() => r())));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }

  it("before answering: 502 naming it, and the client's connection stays usable", async () => {
    const url = await hangingUp("");
    rec = await startRecorder({ model: url });
    const get = "GET /api/tags HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n";
    const { text, closed } = await raw(rec.taps.model.port, get + get, (t) => t.split("HTTP/1.1 502").length === 3);
    expect(closed).toBe(false);
    const body = JSON.parse(text.slice(text.indexOf("{"), text.indexOf("}") + 1)) as { error: string };
    expect(body.error).toContain(url);
    expect(body.error).toContain("closed the connection before answering");
    expect(body.error).not.toContain("unreachable");
    expect(body.error).toContain("MODEL_UPSTREAM");
    const ex = await recorded(rec, 2);
    expect(ex.map((e) => `${e.status} ${e.state}`)).toEqual(["502 error", "502 error"]);
  });

  it("mid-response: the client's connection is cut and the exchange recorded as an error", async () => {
    const url = await hangingUp("HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nonly part");
    rec = await startRecorder({ model: url });
    const { text, closed } = await raw(rec.taps.model.port, "GET /api/tags HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
    expect(closed).toBe(true);
    expect(text.endsWith("only part")).toBe(true);
    const [ex] = await recorded(rec, 1);
    expect(ex).toMatchObject({ status: 200, state: "error" });
    expect(ex!.error).toContain("mid-response");
    expect(ex!.responseBody?.data).toBe("only part");
  });
});

describe("backpressure", () => {
  it("stops reading the upstream while the client does not read, and delivers everything once it does", async () => {
    const total = 64 * 1024 * 1024;
    const piece = Buffer.alloc(1024 * 1024, "x");
    let written = 0;
    up = await startUpstream((_req, res) => {
      res.writeHead(200, { "Content-Type": "application/octet-stream", "Content-Length": String(total) });
      const more = () => {
        while (written < total) {
          written += piece.length;
          if (!res.write(piece)) return void res.once("drain", more);
        }
        res.end();
      };
      more();
    });
    rec = await startRecorder({ model: up.url });
    const s = net.connect(rec.taps.model.port, "127.0.0.1");
    s.pause();
    s.write("GET /api/blobs/big HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
    await new Promise((r) => setTimeout(r, 800));
    // Socket buffers in the kernel hold a few MB; without pause/resume the tap would have read it all.
    expect(written).toBeLessThan(total / 2);
    let got = 0;
    await new Promise<void>((resolve) => {
      s.on("data", (d: Buffer) => {
        got += d.length;
        if (got >= total) resolve();
      });
      s.resume();
    });
    s.destroy();
    expect(written).toBe(total);
  });
});
