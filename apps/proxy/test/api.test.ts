/** The recorder's HTTP API on UI_PORT against real recorded traffic. */
import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { AppConfigSchema, HealthSchema, SavedListSchema, TraceListSchema } from "@hopscope/shared/trace/api";
import { ExchangeSchema, TraceSchema, TraceSummarySchema } from "@hopscope/shared/trace/schemas";
import { parseTraceBundle } from "@hopscope/shared/trace/bundle";
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

/** A stand-in for the model server: answers /api/version as the simulated model, /api/chat with JSON. */
async function modelUpstream(): Promise<Upstream> {
  return startUpstream((req, res, body) => {
    if (req.url === "/api/tags") {
      res.writeHead(200, { "Content-Type": "application/json", "x-hopscope-simulated": "1" });
      return res.end('{"models":[]}');
    }
    if (req.url === "/api/version") {
      res.writeHead(200, { "Content-Type": "application/json", "x-hopscope-simulated": "1" });
      return res.end('{"version":"0.13.5"}');
    }
    const { messages } = JSON.parse(body.toString()) as { messages: { content: string }[] };
    res.writeHead(200, { "Content-Type": "application/json; charset=utf-8", "x-hopscope-simulated": "1" });
    res.end(
      JSON.stringify({
        model: "m",
        created_at: "t",
        message: { role: "assistant", content: `echo ${messages.at(-1)?.content}` },
        done: true,
      }),
    );
  });
}

async function ask(r: TestRecorder, question: string) {
  await request(`${r.taps.model.url}/api/chat`, {
    method: "POST",
    body: JSON.stringify({ model: "m", stream: false, messages: [{ role: "user", content: question }] }),
  });
}

async function recorded(r: TestRecorder, n: number) {
  return eventually(async () => {
    const list = TraceListSchema.parse((await getJson(`${r.url}/api/traces?limit=500`)).body);
    return list.traces.length === n ? list.traces : null;
  }, `${n} traces`);
}

describe("recorder API", () => {
  it("does not count an MCP GET answered 405 (no stream offered) as a trace's error; a real failure still counts", async () => {
    up = await startUpstream((req, res) => {
      res.writeHead(req.method === "GET" ? 405 : 500, { "Content-Type": "text/plain" });
      res.end(req.method === "GET" ? "Method Not Allowed" : "boom");
    });
    rec = await startRecorder({ mcp: up.url });
    const tp = (n: number) => `00-${"ab".repeat(15)}${String(n).padStart(2, "0")}-00f067aa0ba902b7-01`;
    await request(`${rec.taps.mcp.url}/mcp`, {
      method: "GET",
      headers: { Accept: "text/event-stream", traceparent: tp(1) },
    });
    await request(`${rec.taps.mcp.url}/mcp`, {
      method: "GET",
      headers: { Accept: "text/event-stream", traceparent: tp(2) },
    });
    await request(`${rec.taps.mcp.url}/mcp`, {
      method: "POST",
      headers: { "content-type": "application/json", traceparent: tp(2) },
      body: '{"jsonrpc":"2.0","id":1,"method":"tools/list"}',
    });
    const list = await recorded(rec, 2);
    const byId = new Map(list.map((t) => [t.id, t]));
    expect(byId.get(`${"ab".repeat(15)}01`)).toMatchObject({ exchangeCount: 1, errorCount: 0 });
    expect(byId.get(`${"ab".repeat(15)}02`)).toMatchObject({ exchangeCount: 2, errorCount: 1 });
  });

  it("lists traces newest first in pages, and serves one trace and its exchanges", async () => {
    up = await modelUpstream();
    rec = await startRecorder({ model: up.url });
    for (const q of ["one", "two", "three"]) {
      await ask(rec, q);
      await recorded(rec, ["one", "two", "three"].indexOf(q) + 1);
    }
    const page1 = TraceListSchema.parse((await getJson(`${rec.url}/api/traces?limit=2`)).body);
    expect(page1.traces.map((t) => t.name)).toEqual(["three", "two"]);
    expect(page1.nextCursor).not.toBeNull();
    const page2 = TraceListSchema.parse(
      (await getJson(`${rec.url}/api/traces?limit=2&cursor=${encodeURIComponent(page1.nextCursor!)}`)).body,
    );
    expect(page2.traces.map((t) => t.name)).toEqual(["one"]);
    expect(page2.nextCursor).toBeNull();

    const trace = TraceSchema.parse((await getJson(`${rec.url}/api/traces/${page2.traces[0]!.id}`)).body);
    expect(trace).toMatchObject({
      name: "one",
      source: "live",
      exchangeCount: 1,
      errorCount: 0,
      simulated: true,
      groupedBy: "single",
    });
    const ex = ExchangeSchema.parse((await getJson(`${rec.url}/api/exchanges/${trace.exchanges[0]!.id}`)).body);
    expect(ex.responseBody?.data).toContain("echo one");
    expect(ex.classification).toMatchObject({
      kind: "model.chat",
      stream: false,
      content: "echo one",
      simulated: true,
    });

    expect((await getJson(`${rec.url}/api/traces?limit=0`)).status).toBe(400);
    const badCursor = await getJson<{ error: string }>(`${rec.url}/api/traces?cursor=nope`);
    expect(badCursor.status).toBe(400);
    expect(badCursor.body.error).toContain("nextCursor");
    expect((await getJson(`${rec.url}/api/traces/nope`)).status).toBe(404);
    const badId = await getJson<{ error: string }>(`${rec.url}/api/exchanges/abc`);
    expect(badId.status).toBe(400);
    expect(badId.body.error).toContain("number");
    expect((await getJson(`${rec.url}/api/exchanges/999`)).status).toBe(404);
    expect((await getJson(`${rec.url}/api/nothing`)).status).toBe(404);
  });

  it("renames and deletes a trace", async () => {
    up = await modelUpstream();
    rec = await startRecorder({ model: up.url });
    await ask(rec, "rename me");
    const [t] = await recorded(rec, 1);
    const renamed = await getJson(`${rec.url}/api/traces/${t!.id}`, {
      method: "PATCH",
      headers: { "content-type": "application/json" },
      body: '{"name":"Milk demo"}',
    });
    expect(TraceSummarySchema.parse(renamed.body).name).toBe("Milk demo");
    const empty = await getJson<{ error: string }>(`${rec.url}/api/traces/${t!.id}`, {
      method: "PATCH",
      headers: { "content-type": "application/json" },
      body: '{"name":"  "}',
    });
    expect(empty.status).toBe(400);
    expect(empty.body.error).toContain("name");
    const notJson = await getJson<{ error: string }>(`${rec.url}/api/traces/${t!.id}`, {
      method: "PATCH",
      headers: { "content-type": "application/json" },
      body: "name=x",
    });
    expect(notJson.body.error).toContain("JSON");
    const del = await fetch(`${rec.url}/api/traces/${t!.id}`, { method: "DELETE" });
    expect(del.status).toBe(204);
    expect((await getJson(`${rec.url}/api/traces/${t!.id}`)).status).toBe(404);
    expect((await fetch(`${rec.url}/api/traces/${t!.id}`, { method: "DELETE" })).status).toBe(404);
  });

  it("exports every format as an attachment, saves to TRACES_DIR and loads it back as a new trace", async () => {
    up = await modelUpstream();
    rec = await startRecorder({ model: up.url });
    await ask(rec, "Add buy milk to my notes");
    const [t] = await recorded(rec, 1);
    for (const format of ["hopscope", "har", "otlp", "mermaid"]) {
      const res = await fetch(`${rec.url}/api/traces/${t!.id}/export?format=${format}`);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-disposition")).toMatch(/^attachment; filename="add-buy-milk-to-my-notes\./);
      expect((await res.text()).length).toBeGreaterThan(0);
    }
    const bad = await getJson<{ error: string }>(`${rec.url}/api/traces/${t!.id}/export?format=pdf`);
    expect(bad.status).toBe(400);
    expect(bad.body.error).toContain("mermaid");

    const saved = await getJson<{ savedAs: string }>(`${rec.url}/api/traces/${t!.id}/save`, { method: "POST" });
    expect(saved.body.savedAs).toMatch(/^add-buy-milk-to-my-notes-[0-9a-f]{8}\.hopscope\.json$/);
    const file = parseTraceBundle(
      JSON.parse(await readFile(path.join(rec.config.tracesDir, saved.body.savedAs), "utf8")),
    );
    expect(file.trace.id).toBe(t!.id);
    expect(TraceSchema.parse((await getJson(`${rec.url}/api/traces/${t!.id}`)).body).savedAs).toBe(saved.body.savedAs);

    await writeFile(path.join(rec.config.tracesDir, "broken.hopscope.json"), "{");
    const list = SavedListSchema.parse((await getJson(`${rec.url}/api/saved`)).body);
    expect(list.files).toEqual([
      { file: saved.body.savedAs, name: "Add buy milk to my notes", description: null, exchangeCount: 1 },
    ]);

    const loaded = TraceSummarySchema.parse(
      (await getJson(`${rec.url}/api/saved/${saved.body.savedAs}/load`, { method: "POST" })).body,
    );
    expect(loaded).toMatchObject({ source: "imported", name: "Add buy milk to my notes", exchangeCount: 1 });
    expect(loaded.id).not.toBe(t!.id);
    const copy = TraceSchema.parse((await getJson(`${rec.url}/api/traces/${loaded.id}`)).body);
    const original = ExchangeSchema.parse((await getJson(`${rec.url}/api/exchanges/${file.exchanges[0]!.id}`)).body);
    const imported = ExchangeSchema.parse((await getJson(`${rec.url}/api/exchanges/${copy.exchanges[0]!.id}`)).body);
    expect(imported.requestBody).toEqual(original.requestBody);
    expect(imported.responseBody).toEqual(original.responseBody);
    expect(imported.chunks).toEqual(original.chunks);

    const broken = await getJson<{ error: string }>(`${rec.url}/api/saved/broken.hopscope.json/load`, {
      method: "POST",
    });
    expect(broken.status).toBe(400);
    expect((await getJson(`${rec.url}/api/saved/..%2Fx.hopscope.json/load`, { method: "POST" })).status).toBe(400);
    expect((await getJson(`${rec.url}/api/saved/missing.hopscope.json/load`, { method: "POST" })).status).toBe(404);
    expect((await traces(rec)).length).toBe(2);
  });

  it("imports hopscope and HAR files, and refuses a bad file without storing anything", async () => {
    up = await modelUpstream();
    rec = await startRecorder({ model: up.url });
    await ask(rec, "export me");
    const [t] = await recorded(rec, 1);
    const har = await (await fetch(`${rec.url}/api/traces/${t!.id}/export?format=har`)).text();
    const fromHar = await getJson(`${rec.url}/api/import`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: har,
    });
    expect(fromHar.status).toBe(200);
    expect(TraceSummarySchema.parse(fromHar.body)).toMatchObject({ source: "imported", exchangeCount: 1 });
    const bad = await getJson<{ error: string }>(`${rec.url}/api/import`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: '{"format":"hopscope-trace","version":99}',
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toContain("version");
    const notJson = await getJson<{ error: string }>(`${rec.url}/api/import`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "hello",
    });
    expect(notJson.status).toBe(400);
    // Two exchanges with one id: refused whole, naming the id (storing it kept one of the two).
    const bundle = JSON.parse(await (await fetch(`${rec.url}/api/traces/${t!.id}/export?format=hopscope`)).text());
    bundle.exchanges.push({ ...bundle.exchanges[0], seq: 2 });
    bundle.trace.exchanges.push({ ...bundle.trace.exchanges[0], seq: 2 });
    const twice = await getJson<{ error: string }>(`${rec.url}/api/import`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(bundle),
    });
    expect(twice.status).toBe(400);
    expect(twice.body.error).toMatch(/exchange id \d+ is used twice \(exchanges 0 and 1\)/);
    expect((await traces(rec)).length).toBe(2);
  });

  it("reports health and config: tap URLs, the simulated model, the last lesson", async () => {
    up = await modelUpstream();
    rec = await startRecorder({ model: up.url });
    const health = HealthSchema.parse((await getJson(`${rec.url}/api/health`)).body);
    expect(health.taps.model).toEqual({ port: rec.taps.model.port, upstream: up.url, url: rec.taps.model.url });
    await request(`${rec.taps.model.url}/api/tags`, { headers: { "x-hopscope-lesson": "missing-argument" } });
    const config = AppConfigSchema.parse((await getJson(`${rec.url}/api/config`)).body);
    expect(config).toEqual({
      agentTapUrl: rec.taps.agent.url,
      modelTapUrl: rec.taps.model.url,
      mcpTapUrl: rec.taps.mcp.url,
      simulated: true,
      lesson: "missing-argument",
      ollamaVersion: "0.13.5",
    });
  });

  it("refuses other hosts (DNS rebinding) and other web pages' origins", async () => {
    rec = await startRecorder({});
    const rebound = await request(`${rec.url}/api/traces`, { headers: { Host: `evil.example:${rec.port}` } });
    expect(rebound.status).toBe(403);
    expect(rebound.body.toString()).toContain("127.0.0.1");
    const page = await request(`${rec.url}/api/ask`, {
      method: "POST",
      headers: { Origin: "https://evil.example", "content-type": "text/plain" },
      body: '{"message":"delete my notes"}',
    });
    expect(page.status).toBe(403);
    expect((await request(`${rec.url}/api/traces`, { headers: { Origin: rec.url } })).status).toBe(200);
    expect((await request(`${rec.url}/api/traces`, { headers: { Host: `localhost:${rec.port}` } })).status).toBe(200);
  });

  it("forwards /api/ask through the agent tap, so the question is recorded", async () => {
    const host = await startUpstream((_req, res, body) => {
      const { message } = JSON.parse(body.toString()) as { message: string };
      res.writeHead(200, { "Content-Type": "application/json" });
      res.end(JSON.stringify({ reply: `you said ${message}`, conversationId: "c1", steps: 1, toolCalls: [] }));
    });
    rec = await startRecorder({ agent: host.url });
    const res = await getJson<{ reply: string }>(`${rec.url}/api/ask`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: '{"message":"hi there"}',
    });
    expect(res.body.reply).toBe("you said hi there");
    const [t] = await recorded(rec, 1);
    expect(t!.name).toBe("hi there");
    expect(host.received[0]!.headers.some(([k]) => k.toLowerCase() === "traceparent")).toBe(true);
    expect(
      (
        await getJson(`${rec.url}/api/ask`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: '{"message":""}',
        })
      ).status,
    ).toBe(400);
    await host.close();
  });

  it("serves the built UI with an index.html fallback, and a plain page when it is not built", async () => {
    rec = await startRecorder({});
    const missing = await fetch(`${rec.url}/`);
    expect(missing.status).toBe(503);
    expect(await missing.text()).toContain("npm run build -w apps/web");
    await mkdir(path.join(rec.config.webDist, "assets"), { recursive: true });
    await writeFile(path.join(rec.config.webDist, "index.html"), "<!doctype html><title>hopscope</title>");
    await writeFile(path.join(rec.config.webDist, "assets", "app.js"), "console.log(1)");
    const index = await fetch(`${rec.url}/traces/abc`);
    expect(index.headers.get("content-type")).toContain("text/html");
    expect(await index.text()).toContain("<title>hopscope</title>");
    const js = await fetch(`${rec.url}/assets/app.js`);
    expect(js.headers.get("content-type")).toContain("javascript");
    expect(await js.text()).toBe("console.log(1)");
    expect((await request(`${rec.url}/%E0%A4%A`)).status).toBe(400);
    const escape = await request(`${rec.url}/..%2F..%2F..%2Fetc%2Fpasswd`);
    expect(escape.body.toString()).toContain("<title>hopscope</title>");
  });
});
