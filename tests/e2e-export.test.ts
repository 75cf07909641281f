/**
 * Exports through the real stack: a question recorded by the real recorder is exported in each of the four
 * formats over the API, and the two importable formats (hopscope file, HAR) come back as the same trace.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TraceSummarySchema, type Trace } from "@hopscope/shared/trace/schemas";
import { TraceSchema } from "@hopscope/shared/trace/schemas";
import { parseTraceBundle } from "@hopscope/shared/trace/bundle";
import { traceShape } from "../scripts/record-traces";
import { startRecorderStack, type RecorderStack } from "./support/recorder-stack";

let stack: RecorderStack;
let trace: Trace;

beforeAll(async () => {
  stack = await startRecorderStack();
  const asked = await stack.ask("Add buy milk to my notes");
  expect(asked.status).toBe(200);
  trace = await stack.waitForTrace("Add buy milk to my notes");
});
afterAll(async () => {
  await stack?.close();
});

async function exportAs(format: string): Promise<string> {
  return stack.api(`/api/traces/${trace.id}/export?format=${format}`);
}

async function importBack(text: string): Promise<Trace> {
  const summary = TraceSummarySchema.parse(
    JSON.parse(
      await stack.api("/api/import", { method: "POST", headers: { "content-type": "application/json" }, body: text }),
    ),
  );
  expect(summary.id).not.toBe(trace.id);
  return TraceSchema.parse(JSON.parse(await stack.api(`/api/traces/${summary.id}`)));
}

describe("exports of a recorded trace", () => {
  it("hopscope file: self-contained, and imports back as the same trace", async () => {
    const text = await exportAs("hopscope");
    const bundle = parseTraceBundle(JSON.parse(text));
    expect(bundle.exchanges.map((e) => e.tap)).toEqual(["agent", "mcp", "model", "mcp", "model"]);
    expect(bundle.exchanges.every((e) => e.requestBody !== null && e.responseBody !== null)).toBe(true);
    const back = await importBack(text);
    expect(traceShape(back)).toEqual(traceShape(trace));
  });

  it("HAR 1.2: opens as a log of the five HTTP calls, and imports back as the same trace", async () => {
    const text = await exportAs("har");
    const har = JSON.parse(text) as {
      log: { version: string; entries: { request: { method: string; url: string }; response: { status: number } }[] };
    };
    expect(har.log.version).toBe("1.2");
    expect(
      har.log.entries.map((e) => `${e.request.method} ${new URL(e.request.url).pathname} ${e.response.status}`),
    ).toEqual(["POST /agent 200", "POST /mcp 200", "POST /api/chat 200", "POST /mcp 200", "POST /api/chat 200"]);
    const back = await importBack(text);
    expect(traceShape(back)).toEqual(traceShape(trace));
  });

  it("OTLP/JSON: one trace id, GenAI and MCP span names", async () => {
    const otlp = JSON.parse(await exportAs("otlp")) as {
      resourceSpans: { scopeSpans: { spans: { name: string; traceId: string }[] }[] }[];
    };
    const spans = otlp.resourceSpans.flatMap((r) => r.scopeSpans.flatMap((s) => s.spans));
    expect(new Set(spans.map((s) => s.traceId)).size).toBe(1);
    const names = spans.map((s) => s.name);
    expect(names).toContain("chat qwen2.5:7b");
    expect(names).toContain("tools/call append");
    expect(names).toContain("tools/list");
  });

  it("Mermaid: a sequence diagram with the article's numbered hops", async () => {
    const mermaid = await exportAs("mermaid");
    expect(mermaid.startsWith("sequenceDiagram")).toBe(true);
    for (const participant of ["You", "Host", "Model server", "MCP server"]) expect(mermaid).toContain(participant);
    expect(mermaid).toMatch(/tools\/call append/);
  });

  it("an unknown format is refused with a message naming the formats", async () => {
    await expect(exportAs("pdf")).rejects.toThrow(/hopscope|har|otlp|mermaid/);
  });
});
