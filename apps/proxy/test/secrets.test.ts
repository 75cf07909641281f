/**
 * Secrets never stored, and untrusted files never crash or fill the recorder: the one redaction rule set
 * on live traffic (X-Auth-Key), on HAR and hopscope imports and on every export format; imports over
 * MAX_IMPORT_BYTES get 413 and a 100,000-deep file a clear 400, with nothing stored.
 */
import { afterEach, describe, expect, it } from "vitest";
import { TraceBundleSchema } from "@hopscope/shared/trace/bundle";
import { ExchangeSchema, TraceSchema } from "@hopscope/shared/trace/schemas";
import { exportTrace } from "../src/main/export/trace-file";
import { part4Bundle } from "./export/part4-fixture";
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

let rec: TestRecorder | undefined;
let up: Upstream | undefined;
afterEach(() => closeAll(rec, up));

const SECRETS = ["sk-live-123", "sess=abc", "tok-999", "AIzaSecret", "bearer-xyz", "k-555"];
const JSON_TYPE = { "content-type": "application/json" };

/** A browser's HAR of one /api/chat call, carrying every kind of secret the issue names. */
function secretHar(): string {
  const entry = {
    startedDateTime: "2026-11-29T20:00:00.000Z",
    time: 10,
    request: {
      method: "POST",
      url: "http://127.0.0.1:11434/api/chat?api_key=AIzaSecret&model=qwen",
      httpVersion: "HTTP/1.1",
      cookies: [{ name: "sess", value: "abc" }],
      headers: [
        { name: "Authorization", value: "Bearer bearer-xyz" },
        { name: "Cookie", value: "sess=abc" },
        { name: "X-Auth-Key", value: "k-555" },
        { name: "Content-Type", value: "application/json" },
      ],
      queryString: [{ name: "api_key", value: "AIzaSecret" }],
      postData: {
        mimeType: "application/json",
        text: '{"model":"qwen2.5:7b","messages":[{"role":"user","content":"hi"}],"stream":false}',
      },
      headersSize: -1,
      bodySize: 80,
    },
    response: {
      status: 200,
      statusText: "OK",
      httpVersion: "HTTP/1.1",
      cookies: [],
      headers: [
        { name: "Set-Cookie", value: "sess=abc; HttpOnly" },
        { name: "X-Refresh-Token", value: "tok-999" },
      ],
      content: {
        size: 20,
        mimeType: "application/json",
        text: '{"message":{"role":"assistant","content":"Hello!"},"done":true}',
      },
      redirectURL: "",
      headersSize: -1,
      bodySize: -1,
    },
    cache: {},
    timings: { send: 1, wait: 8, receive: 1 },
  };
  return JSON.stringify({ log: { version: "1.2", creator: { name: "Chrome", version: "1" }, entries: [entry] } });
}

async function storedText(r: TestRecorder): Promise<string> {
  const all = await traces(r);
  const parts: string[] = [];
  for (const t of all) {
    const trace = TraceSchema.parse((await getJson(`${r.url}/api/traces/${t.id}`)).body);
    for (const e of trace.exchanges)
      parts.push(JSON.stringify(ExchangeSchema.parse((await getJson(`${r.url}/api/exchanges/${e.id}`)).body)));
  }
  return parts.join("\n");
}

describe("secrets are redacted on every path in and out", () => {
  it("live traffic: X-Auth-Key, X-Goog-Api-Key, cookies and ?key= are stored redacted, forwarded whole", async () => {
    up = await startUpstream((_req, res) => {
      res.writeHead(200, { "Content-Type": "application/json", "Set-Cookie": "sess=abc" });
      res.end("{}");
    });
    rec = await startRecorder({ model: up.url });
    await request(`${rec.taps.model.url}/api/tags?key=sk-live-123`, {
      headers: { "X-Auth-Key": "k-555", "X-Goog-Api-Key": "AIzaSecret", Cookie: "sess=abc" },
    });
    expect(up.received[0]!.headers.find(([k]) => k === "X-Auth-Key")?.[1]).toBe("k-555");
    await eventually(async () => (await traces(rec!)).length === 1, "the exchange to be recorded");
    const stored = await storedText(rec);
    expect(stored).toContain("X-Auth-Key");
    for (const s of SECRETS) expect(stored).not.toContain(s);
  });

  it("a HAR import keeps no Authorization, Cookie, Set-Cookie, X-Auth-Key or ?api_key in clear", async () => {
    rec = await startRecorder({});
    const res = await getJson(`${rec.url}/api/import`, { method: "POST", headers: JSON_TYPE, body: secretHar() });
    expect(res.status).toBe(200);
    const stored = await storedText(rec);
    expect(stored).toContain("Authorization");
    expect(stored).toContain("model=qwen");
    for (const s of SECRETS) expect(stored).not.toContain(s);
  });

  it("a hopscope file carrying secrets (hand-edited, or from an older build) is redacted on import", async () => {
    rec = await startRecorder({});
    const bundle = part4Bundle();
    const first = bundle.exchanges[0]!;
    first.requestHeaders = [...first.requestHeaders, ["X-Auth-Key", "k-555"], ["Cookie", "sess=abc"]];
    first.url = `${first.url}?access_token=tok-999`;
    bundle.trace.exchanges[0]!.url = first.url;
    const res = await getJson(`${rec.url}/api/import`, {
      method: "POST",
      headers: JSON_TYPE,
      body: JSON.stringify(bundle),
    });
    expect(res.status).toBe(200);
    const stored = await storedText(rec);
    for (const s of SECRETS) expect(stored).not.toContain(s);
  });

  it("every export format is redacted, whatever the store holds", () => {
    const bundle = TraceBundleSchema.parse(part4Bundle());
    const ex = bundle.exchanges[0]!;
    ex.requestHeaders.push(["Authorization", "Bearer bearer-xyz"], ["X-Auth-Key", "k-555"]);
    ex.responseHeaders.push(["Set-Cookie", "sess=abc"]);
    ex.url = `${ex.url}?sig=tok-999`;
    bundle.trace.exchanges[0]!.url = ex.url;
    for (const format of ["hopscope", "har", "otlp", "mermaid"] as const) {
      const body = exportTrace(bundle, format).body;
      for (const s of SECRETS) expect(body, `${format} export`).not.toContain(s);
    }
  });
});

describe("imports are bounded", () => {
  it("a file over MAX_IMPORT_BYTES gets 413 saying the limit and how to raise it, and nothing is stored", async () => {
    rec = await startRecorder({}, { maxImportBytes: 4096 });
    const big = secretHar().replace('"version":"1.2"', `"version":"1.2","comment":"${"x".repeat(5000)}"`);
    const res = await request(`${rec.url}/api/import`, { method: "POST", headers: JSON_TYPE, body: big });
    expect(res.status).toBe(413);
    expect(JSON.parse(res.body.toString()).error).toMatch(
      /larger than 4096 bytes.*MAX_IMPORT_BYTES.*nothing was stored/,
    );
    expect(res.headers.connection).toBe("close");
    expect(await traces(rec)).toEqual([]);
    // Under the limit the same kind of file is imported.
    expect(
      (await getJson(`${rec.url}/api/import`, { method: "POST", headers: JSON_TYPE, body: secretHar() })).status,
    ).toBe(200);
  });

  it("a 100,000-deep HAR or hopscope file gets a clear 400, not a 500, and nothing is stored", async () => {
    rec = await startRecorder({});
    const deep = "[".repeat(100_000) + "]".repeat(100_000);
    for (const body of [
      `{"log":{"version":"1.2","entries":${deep}}}`,
      `{"format":"hopscope-trace","trace":${deep}}`,
      deep,
    ]) {
      const res = await getJson<{ error: string }>(`${rec.url}/api/import`, {
        method: "POST",
        headers: JSON_TYPE,
        body,
      });
      expect(res.status).toBe(400);
      expect(res.body.error).toMatch(/nested deeper than 1000 levels/);
    }
    const replay = await getJson<{ error: string }>(`${rec.url}/api/replay`, {
      method: "POST",
      headers: JSON_TYPE,
      body: `{"bundle":${deep}}`,
    });
    expect(replay.status).toBe(400);
    expect(await traces(rec)).toEqual([]);
  });

  it("a 100,000-deep body through a tap is forwarded and recorded; classifying it does not crash", async () => {
    up = await startUpstream((_req, res) => {
      res.writeHead(400, { "Content-Type": "application/json" });
      res.end('{"error":"invalid character \'[\' exceeded max depth"}');
    });
    rec = await startRecorder({ model: up.url, mcp: up.url });
    const deep = `{"model":"qwen2.5:7b","messages":${"[".repeat(100_000)}${"]".repeat(100_000)}}`;
    expect(
      (await request(`${rec.taps.model.url}/api/chat`, { method: "POST", headers: JSON_TYPE, body: deep })).status,
    ).toBe(400);
    expect(
      (
        await request(`${rec.taps.mcp.url}/mcp`, {
          method: "POST",
          headers: JSON_TYPE,
          body: `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":${"[".repeat(100_000)}${"]".repeat(100_000)}}`,
        })
      ).status,
    ).toBe(400);
    const listed = await eventually(
      async () => ((await traces(rec!)).reduce((n, t) => n + t.exchanges.length, 0) === 2 ? traces(rec!) : null),
      "both exchanges recorded",
    );
    expect(listed.flatMap((t) => t.exchanges.map((e) => e.state)).sort()).toEqual(["complete", "complete"]);
  });
});
