/**
 * The taps against small real upstream servers: transparency (bytes, headers), streaming chunk by chunk,
 * and the recorded exchange (bodies, chunks, redaction, classification).
 */
import http from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { ExchangeSchema } from "@hopscope/shared/trace/schemas";
import {
  closeAll,
  eventually,
  getJson,
  request,
  startRecorder,
  startUpstream,
  traces,
  type TestRecorder,
  type Upstream,
} from "./helpers";

let rec: TestRecorder | null = null;
let up: Upstream | null = null;
afterEach(() => closeAll(rec, up));

async function exchange(r: TestRecorder, id: number) {
  return ExchangeSchema.parse((await getJson(`${r.url}/api/exchanges/${id}`)).body);
}

describe("tap transparency", () => {
  it("forwards method, path, query, end-to-end headers and body unchanged, and rewrites Host", async () => {
    up = await startUpstream((_req, res) => {
      res.writeHead(201, [
        ["X-Upstream", "yes"],
        ["Set-Cookie", "s=1"],
        ["Content-Type", "text/plain"],
      ]);
      res.end("created");
    });
    rec = await startRecorder({ model: up.url });
    const body = '{"model":"m","x":"é"}';
    const res = await request(`${rec.taps.model.url}/api/things?b=2&a=1&api_key=sekret`, {
      method: "PUT",
      headers: {
        "X-Custom": "One",
        Authorization: "Bearer abc",
        Connection: "keep-alive, X-Drop",
        "X-Drop": "gone",
        "content-type": "application/json",
      },
      body,
    });
    expect(res.status).toBe(201);
    expect(res.body.toString()).toBe("created");
    expect(res.headers["x-upstream"]).toBe("yes");
    const got = up.received[0]!;
    expect(got.method).toBe("PUT");
    expect(got.url).toBe("/api/things?b=2&a=1&api_key=sekret");
    expect(got.body.toString()).toBe(body);
    const names = got.headers.map(([k]) => k.toLowerCase());
    expect(got.headers.find(([k]) => k === "X-Custom")?.[1]).toBe("One");
    expect(got.headers.find(([k]) => k.toLowerCase() === "authorization")?.[1]).toBe("Bearer abc");
    expect(names).not.toContain("x-drop");
    expect(got.headers.find(([k]) => k.toLowerCase() === "host")?.[1]).toBe(new URL(up.url).host);

    const [trace] = await eventually(async () => {
      const t = await traces(rec!);
      return t.length === 1 && t[0]!.exchanges.length === 1 ? t : null;
    }, "the exchange to be recorded");
    const ex = await exchange(rec, trace!.exchanges[0]!.id);
    expect(ex.method).toBe("PUT");
    expect(ex.url).toBe("/api/things?b=2&a=1&api_key=[redacted]");
    expect(ex.requestHeaders.find(([k]) => k === "Authorization")?.[1]).toBe("[redacted]");
    expect(ex.requestHeaders.find(([k]) => k === "X-Custom")?.[1]).toBe("One");
    expect(ex.responseHeaders.find(([k]) => k === "Set-Cookie")?.[1]).toBe("[redacted]");
    expect(ex.requestBody).toMatchObject({
      encoding: "utf8",
      data: body,
      size: Buffer.byteLength(body),
      truncated: false,
    });
    expect(ex.responseBody?.data).toBe("created");
    expect(ex.status).toBe(201);
    expect(ex.state).toBe("complete");
    expect(ex.timings.requestEnd).not.toBeNull();
    expect(ex.timings.firstByte).not.toBeNull();
    expect(ex.timings.end! >= ex.timings.start).toBe(true);
  });

  it("passes non-UTF-8 bytes both ways byte for byte and records them as base64", async () => {
    const reqBytes = Buffer.from([0xff, 0xfe, 0x00, 0x80, 0xc3, 0x28, 0x41]);
    const resBytes = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0xff]);
    up = await startUpstream((_req, res) => {
      res.writeHead(200, { "Content-Type": "application/octet-stream" });
      res.end(resBytes);
    });
    // The model tap: it forwards any Content-Type (the agent and MCP taps insist on JSON).
    rec = await startRecorder({ model: up.url });
    const res = await request(`${rec.taps.model.url}/api/blobs/sha256-x`, {
      method: "POST",
      body: reqBytes,
      headers: { "content-type": "application/octet-stream" },
    });
    expect(res.body.equals(resBytes)).toBe(true);
    expect(up.received[0]!.body.equals(reqBytes)).toBe(true);
    const [trace] = await eventually(
      async () => ((await traces(rec!)).length === 1 ? traces(rec!) : null),
      "recording",
    );
    const ex = await exchange(rec, trace!.exchanges[0]!.id);
    expect(ex.requestBody?.encoding).toBe("base64");
    expect(Buffer.from(ex.requestBody!.data, "base64").equals(reqBytes)).toBe(true);
    expect(Buffer.from(ex.responseBody!.data, "base64").equals(resBytes)).toBe(true);
  });

  it("forwards a malformed JSON body unchanged and records it as sent", async () => {
    up = await startUpstream((_req, res) => {
      res.writeHead(400, { "Content-Type": "application/json" });
      res.end('{"error":"invalid character \'}\' looking for beginning of value"}');
    });
    rec = await startRecorder({ model: up.url });
    const bad = '{"model": "qwen2.5:7b", "messages": [}';
    const res = await request(`${rec.taps.model.url}/api/chat`, {
      method: "POST",
      body: bad,
      headers: { "content-type": "application/json" },
    });
    expect(res.status).toBe(400);
    expect(up.received[0]!.body.toString()).toBe(bad);
    const [trace] = await eventually(
      async () => ((await traces(rec!)).length === 1 ? traces(rec!) : null),
      "recording",
    );
    const ex = await exchange(rec, trace!.exchanges[0]!.id);
    expect(ex.requestBody?.data).toBe(bad);
    expect(ex.status).toBe(400);
    expect(ex.classification).toMatchObject({ kind: "model.other", endpoint: "/api/chat" });
  });

  it("forwards a 10 MB body whole and stores it truncated, marked so", async () => {
    const big = Buffer.alloc(10 * 1024 * 1024, "abcdefghij");
    up = await startUpstream((_req, res, body) => {
      res.writeHead(200, { "Content-Type": "text/plain" });
      res.end(`${body.length}:${body.equals(big)}`);
    });
    rec = await startRecorder({ model: up.url }, { maxBodyBytes: 1024 * 1024 });
    const res = await request(`${rec.taps.model.url}/api/upload`, { method: "POST", body: big });
    expect(res.body.toString()).toBe(`${big.length}:true`);
    const [trace] = await eventually(
      async () => ((await traces(rec!)).length === 1 ? traces(rec!) : null),
      "recording",
    );
    const ex = await exchange(rec, trace!.exchanges[0]!.id);
    expect(ex.requestBody).toMatchObject({
      size: big.length,
      storedSize: 1024 * 1024,
      truncated: true,
      encoding: "utf8",
    });
    expect(ex.requestBody!.data).toBe(big.subarray(0, 1024 * 1024).toString());
    expect(ex.requestSize).toBe(big.length);
  });

  it("starts a traceparent on the agent tap when the request has none, and keeps one that is there", async () => {
    up = await startUpstream((_req, res) => {
      res.writeHead(200, { "Content-Type": "application/json" });
      res.end('{"reply":"done","conversationId":"c1","steps":1,"toolCalls":[]}');
    });
    rec = await startRecorder({ agent: up.url });
    await request(`${rec.taps.agent.url}/agent`, {
      method: "POST",
      body: '{"message":"hi"}',
      headers: { "content-type": "application/json" },
    });
    const given = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01";
    await request(`${rec.taps.agent.url}/agent`, {
      method: "POST",
      body: '{"message":"again"}',
      headers: { "content-type": "application/json", traceparent: given },
    });
    const started = up.received[0]!.headers.find(([k]) => k.toLowerCase() === "traceparent")?.[1];
    expect(started).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/);
    expect(up.received[1]!.headers.find(([k]) => k.toLowerCase() === "traceparent")?.[1]).toBe(given);
    const all = await eventually(async () => {
      const t = await traces(rec!);
      return t.length === 2 ? t : null;
    }, "two traces");
    const ids = all.map((t) => t.id).sort();
    expect(ids).toEqual([started!.split("-")[1], "0af7651916cd43dd8448eb211c80319c"].sort());
    const mine = all.find((t) => t.id === "0af7651916cd43dd8448eb211c80319c")!;
    expect(mine.name).toBe("again");
    expect(mine.groupedBy).toBe("traceparent");
    expect(mine.exchanges[0]!.classification).toEqual({
      kind: "agent",
      message: "again",
      reply: "done",
      conversationId: "c1",
    });
  });
});

describe("streaming through the taps", () => {
  it("delivers the first NDJSON chunk to the client while the upstream is still generating", async () => {
    let release!: () => void;
    const released = new Promise<void>((r) => (release = r));
    const lines = [
      '{"model":"qwen2.5:7b","created_at":"2026-01-01T00:00:00Z","message":{"role":"assistant","content":"","tool_calls":[{"id":"call_1","function":{"index":0,"name":"append","arguments":{"content":"buy milk"}}}]},"done":false}\n',
      '{"model":"qwen2.5:7b","created_at":"2026-01-01T00:00:01Z","message":{"role":"assistant","content":""},"done":true,"done_reason":"stop","prompt_eval_count":12,"eval_count":3}\n',
    ];
    up = await startUpstream((_req, res) => {
      res.writeHead(200, { "Content-Type": "application/x-ndjson" });
      res.write(lines[0]);
      // The rest only after the client has seen the first line: a buffering proxy would deadlock here.
      void released.then(() => res.end(lines[1]));
    });
    rec = await startRecorder({ model: up.url });
    const order: string[] = [];
    let firstSeenAt = 0;
    let releasedAt = 0;
    const body = await new Promise<string>((resolve, reject) => {
      const req = http.request(
        `${rec!.taps.model.url}/api/chat`,
        { method: "POST", headers: { "content-type": "application/json" } },
        (res) => {
          let text = "";
          res.on("data", (c: Buffer) => {
            text += c.toString();
            order.push(`chunk:${c.toString().includes('"done":true') ? "last" : "first"}`);
            if (order.length === 1) {
              firstSeenAt = performance.timeOrigin + performance.now();
              order.push("release");
              releasedAt = firstSeenAt;
              release();
            }
          });
          res.on("end", () => resolve(text));
        },
      );
      req.on("error", reject);
      req.end(
        '{"model":"qwen2.5:7b","messages":[{"role":"user","content":"Add buy milk to my notes"}],"tools":[{"type":"function","function":{"name":"append"}}]}',
      );
    });
    expect(order).toEqual(["chunk:first", "release", "chunk:last"]);
    expect(body).toBe(lines.join(""));
    const [trace] = await eventually(
      async () => ((await traces(rec!)).length === 1 ? traces(rec!) : null),
      "recording",
    );
    const ex = await exchange(rec, trace!.exchanges[0]!.id);
    expect(ex.chunks.length).toBe(2);
    expect(ex.chunks[0]).toMatchObject({ index: 0, offset: 0, size: Buffer.byteLength(lines[0]!) });
    expect(ex.chunks[1]!.offset).toBe(Buffer.byteLength(lines[0]!));
    // Recorded arrival times agree with what happened: the first chunk arrived before the client saw it,
    // the second only after the client had released the upstream (same process, same clock).
    expect(ex.timings.start + ex.chunks[0]!.t).toBeLessThanOrEqual(firstSeenAt);
    expect(ex.timings.start + ex.chunks[1]!.t).toBeGreaterThanOrEqual(releasedAt);
    // Epoch milliseconds near 1.8e12 keep only ~0.2 µs of float precision: compare to within 0.01 ms.
    expect(ex.timings.firstByte).toBeCloseTo(ex.timings.start + ex.chunks[0]!.t, 2);
    expect(ex.responseBody?.data).toBe(lines.join(""));
    expect(ex.classification).toMatchObject({
      kind: "model.chat",
      messageCount: 1,
      toolCount: 1,
      stream: true,
      toolCalls: [{ name: "append", arguments: { content: "buy milk" }, id: "call_1" }],
      doneReason: "stop",
      promptEvalCount: 12,
      evalCount: 3,
    });
    expect(trace!.name).toBe("Add buy milk to my notes");
  });

  it("passes an MCP SSE response event by event and classifies the tools/call in it", async () => {
    let release!: () => void;
    const released = new Promise<void>((r) => (release = r));
    up = await startUpstream((_req, res) => {
      res.writeHead(200, { "Content-Type": "text/event-stream", "Cache-Control": "no-cache" });
      res.write(
        'event: message\ndata: {"jsonrpc":"2.0","method":"notifications/progress","params":{"progress":1}}\n\n',
      );
      void released.then(() =>
        res.end(
          'event: message\ndata: {"jsonrpc":"2.0","id":7,"result":{"content":[{"type":"text","text":"Added: buy milk"}],"isError":false}}\n\n',
        ),
      );
    });
    rec = await startRecorder({ mcp: up.url });
    const events: string[] = [];
    await new Promise<void>((resolve, reject) => {
      const req = http.request(
        `${rec!.taps.mcp.url}/mcp`,
        {
          method: "POST",
          headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
        },
        (res) => {
          expect(res.headers["content-type"]).toBe("text/event-stream");
          res.on("data", (c: Buffer) => {
            events.push(c.toString());
            if (events.length === 1) release();
          });
          res.on("end", () => resolve());
        },
      );
      req.on("error", reject);
      req.end(
        '{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"append","arguments":{"content":"buy milk"}}}',
      );
    });
    expect(events[0]).toContain("notifications/progress");
    expect(events.join("")).toContain("Added: buy milk");
    const [trace] = await eventually(
      async () => ((await traces(rec!)).length === 1 ? traces(rec!) : null),
      "recording",
    );
    expect(trace!.exchanges[0]!.classification).toEqual({
      kind: "mcp",
      method: "tools/call",
      toolName: "append",
      jsonrpcId: 7,
      arguments: { content: "buy milk" },
      outcome: "ok",
      resultText: "Added: buy milk",
    });
    expect(trace!.exchanges[0]!.chunkCount).toBe(2);
  });

  it("refuses a rebinding Host itself (it rewrites Host for the upstream) and forwards Origin so the upstream checks it too", async () => {
    up = await startUpstream((_req, res) => {
      res.writeHead(200, { "Content-Type": "application/json" });
      res.end("{}");
    });
    rec = await startRecorder({ mcp: up.url });
    const call = '{"jsonrpc":"2.0","id":1,"method":"tools/list"}';
    const rebound = await request(`${rec.taps.mcp.url}/mcp`, {
      method: "POST",
      headers: { Host: "evil.example", "content-type": "application/json" },
      body: call,
    });
    expect(rebound.status).toBe(403);
    expect(up.received).toHaveLength(0);
    const local = await request(`${rec.taps.mcp.url}/mcp`, {
      method: "POST",
      headers: { Origin: "http://localhost:5173", "content-type": "application/json" },
      body: call,
    });
    expect(local.status).toBe(200);
    expect(up.received[0]!.headers.find(([k]) => k.toLowerCase() === "origin")?.[1]).toBe("http://localhost:5173");
  });
});
