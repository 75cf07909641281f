/** Faults: upstream down or hanging, a client hanging up mid-stream, and a recorder restart. */
import http from "node:http";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { closedPortUrl } from "../../../tests/support/closed-port";
import {
  closeAll,
  eventually,
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

describe("upstream faults", () => {
  it("answers 502 with a JSON error naming the upstream when it is down, and records it", async () => {
    const down = await closedPortUrl();
    rec = await startRecorder({ model: down });
    const res = await request(`${rec.taps.model.url}/api/tags`);
    expect(res.status).toBe(502);
    const body = JSON.parse(res.body.toString()) as { error: string };
    expect(body.error).toContain(down);
    expect(body.error).toContain("is unreachable (ECONNREFUSED)");
    expect(body.error).toContain("MODEL_UPSTREAM");
    const [trace] = await eventually(
      async () => ((await traces(rec!)).length === 1 ? traces(rec!) : null),
      "recording",
    );
    expect(trace!.exchanges[0]).toMatchObject({ status: 502, state: "error" });
    expect(trace!.exchanges[0]!.error).toContain(down);
    expect(trace!.errorCount).toBe(1);
  });

  it("answers 504 when the upstream sends nothing within the timeout", async () => {
    up = await startUpstream(() => {
      // Never answers.
    });
    rec = await startRecorder({ mcp: up.url }, { upstreamTimeoutMs: 150 });
    const res = await request(`${rec.taps.mcp.url}/mcp`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: '{"jsonrpc":"2.0","id":1,"method":"tools/list"}',
    });
    expect(res.status).toBe(504);
    expect((JSON.parse(res.body.toString()) as { error: string }).error).toContain(up.url);
    const [trace] = await eventually(
      async () => ((await traces(rec!)).length === 1 ? traces(rec!) : null),
      "recording",
    );
    expect(trace!.exchanges[0]).toMatchObject({ status: 504, state: "error" });
  });

  it("records a client that hangs up mid-stream as aborted and aborts the upstream request", async () => {
    let upstreamClosed!: () => void;
    const closed = new Promise<void>((r) => (upstreamClosed = r));
    up = await startUpstream((_req, res) => {
      res.writeHead(200, { "Content-Type": "application/x-ndjson" });
      res.write('{"message":{"role":"assistant","content":"Hel"},"done":false}\n');
      res.on("close", () => upstreamClosed());
    });
    rec = await startRecorder({ model: up.url });
    await new Promise<void>((resolve, reject) => {
      const req = http.request(`${rec!.taps.model.url}/api/chat`, { method: "POST" }, (res) => {
        res.once("data", () => {
          req.destroy();
          resolve();
        });
      });
      req.on("error", (err) => (req.destroyed ? undefined : reject(err)));
      req.end('{"model":"m","messages":[{"role":"user","content":"hi"}]}');
    });
    await closed;
    const [trace] = await eventually(async () => {
      const t = await traces(rec!);
      return t.length === 1 && t[0]!.exchanges[0]?.state === "aborted" ? t : null;
    }, "the aborted exchange");
    expect(trace!.exchanges[0]!.chunkCount).toBe(1);
    expect(trace!.exchanges[0]!.error).toContain("client closed");
  });
});

describe("client hang-ups", () => {
  it("records a client that leaves before any response as aborted, and cancels the upstream request", async () => {
    let upstreamClosed!: () => void;
    const closed = new Promise<void>((r) => (upstreamClosed = r));
    up = await startUpstream((_req, res) => {
      // Thinking forever; the only way out is the client leaving.
      res.on("close", () => upstreamClosed());
    });
    rec = await startRecorder({ mcp: up.url });
    const req = http.request(`${rec.taps.mcp.url}/mcp`, {
      method: "POST",
      headers: { "content-type": "application/json" },
    });
    // destroy() below makes the request fail with "socket hang up": that is the point of the test.
    req.on("error", () => undefined);
    req.end('{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"read","arguments":{}}}');
    await eventually(async () => up!.received.length === 1, "the upstream to get the request");
    req.destroy();
    await closed;
    const [trace] = await eventually(async () => {
      const t = await traces(rec!);
      return t.length === 1 && t[0]!.exchanges[0]?.state === "aborted" ? t : null;
    }, "the aborted exchange");
    expect(trace!.exchanges[0]).toMatchObject({ status: null, state: "aborted", responseSize: 0 });
    expect(trace!.exchanges[0]!.classification).toMatchObject({
      kind: "mcp",
      method: "tools/call",
      toolName: "read",
      outcome: "pending",
    });
  });
});

describe("restart", () => {
  it("keeps recorded traces when the recorder restarts on the same database", async () => {
    up = await startUpstream((_req, res) => {
      res.writeHead(200, { "Content-Type": "application/json" });
      res.end('{"version":"0.13.5"}');
    });
    const dir = await mkdtemp(path.join(tmpdir(), "hopscope-restart-"));
    const first = await startRecorder({ model: up.url }, {}, { dir });
    await request(`${first.taps.model.url}/api/version`);
    const before = await eventually(
      async () => ((await traces(first)).length === 1 ? traces(first) : null),
      "recording",
    );
    await first.close();
    rec = await startRecorder({ model: up.url }, {}, { dir });
    const after = await traces(rec);
    expect(after.map((t) => t.id)).toEqual(before.map((t) => t.id));
    expect(after[0]!.exchanges[0]!.classification).toEqual({
      kind: "model.other",
      endpoint: "/api/version",
      simulated: false,
    });
    // New exchanges continue the id sequence instead of overwriting.
    await request(`${rec.taps.model.url}/api/version`);
    const all = await eventually(
      async () => ((await traces(rec!)).length === 2 ? traces(rec!) : null),
      "second recording",
    );
    const ids = all.flatMap((t) => t.exchanges.map((e) => e.id));
    expect(new Set(ids).size).toBe(2);
    await rec.close();
    rec = null;
    await rm(dir, { recursive: true, force: true });
  });
});
