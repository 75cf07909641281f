/** Live OTLP export: with OTEL_EXPORTER_OTLP_ENDPOINT set, a finished trace arrives at a real OTLP/HTTP receiver. */
import { afterEach, describe, expect, it } from "vitest";
import {
  closeAll,
  eventually,
  request,
  startRecorder,
  startUpstream,
  type TestRecorder,
  type Upstream,
} from "./helpers";

let rec: TestRecorder | null = null;
const ups: Upstream[] = [];
afterEach(() => closeAll(rec, ...ups.splice(0)));

describe("live OTLP export", () => {
  it("sends each finished trace's spans to the OTLP/HTTP endpoint", async () => {
    const receiver = await startUpstream((_req, res) => {
      res.writeHead(200, { "Content-Type": "application/json" });
      res.end("{}");
    });
    ups.push(receiver);
    const model = await startUpstream((_req, res) => {
      res.writeHead(200, { "Content-Type": "application/json" });
      res.end('{"model":"m","created_at":"t","message":{"role":"assistant","content":"hi"},"done":true}');
    });
    ups.push(model);
    rec = await startRecorder(
      { model: model.url },
      { otlp: { endpoint: receiver.url, headers: "x-api-key=abc", quietMs: 50 } },
    );
    await request(`${rec.taps.model.url}/api/chat`, {
      method: "POST",
      body: '{"model":"m","stream":false,"messages":[{"role":"user","content":"hello"}]}',
    });
    const got = await eventually(async () => receiver.received[0], "an OTLP export");
    expect(got.method).toBe("POST");
    expect(got.url).toBe("/v1/traces");
    expect(got.headers.find(([k]) => k.toLowerCase() === "x-api-key")?.[1]).toBe("abc");
    const body = JSON.parse(got.body.toString()) as {
      resourceSpans: { scopeSpans: { spans: { name: string }[] }[] }[];
    };
    const spans = body.resourceSpans.flatMap((r) => r.scopeSpans.flatMap((s) => s.spans));
    expect(spans.length).toBeGreaterThanOrEqual(1);
    expect(spans.some((s) => s.name.includes("chat"))).toBe(true);
  });
});
