/**
 * The notes file as part of the trace, against the real stack (MCP server, stand-in, recorder, host):
 * each lesson's change is recorded on the tools/call that made it — append adds a line, write replaces
 * everything — and travels with the trace file: exported, imported again, still on its tools/call.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseTraceBundle } from "@hopscope/shared/trace/bundle";
import { NotesChangesSchema } from "@hopscope/shared/trace/notes-file";
import { TraceSchema, TraceSummarySchema } from "@hopscope/shared/trace/schemas";
import { startRecorderStack, type RecorderStack } from "./support/recorder-stack";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

describe("notes-file changes in the trace", () => {
  let stack: RecorderStack;
  // A real OTLP/HTTP receiver for the live export (OTEL_EXPORTER_OTLP_ENDPOINT): what it was sent, as text.
  const exported: string[] = [];
  let receiver: Server;
  beforeAll(async () => {
    receiver = createServer((req, res) => {
      let body = "";
      req.on("data", (c: Buffer) => (body += c.toString()));
      req.on("end", () => {
        exported.push(body);
        res.writeHead(200, { "Content-Type": "application/json" }).end("{}");
      });
    });
    await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", r));
    const endpoint = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
    stack = await startRecorderStack({
      lesson: "write-instead-of-append",
      notes: "call the dentist\n",
      otlp: { endpoint, quietMs: 300 },
    });
  });
  afterAll(async () => {
    await stack?.close();
    await new Promise((r) => receiver?.close(r));
  });

  it("records the write on its tools/call, and keeps it through export and import", async () => {
    await stack.ask("Add buy milk to my notes");
    const trace = await stack.waitForTrace("Add buy milk to my notes");
    const call = trace.exchanges.find(
      (x) => x.classification.kind === "mcp" && x.classification.method === "tools/call",
    );
    expect(call?.classification).toMatchObject({ toolName: "write" });
    // The cause is decided a moment after the change is seen (the recorder catches up first): poll for it.
    const changesOf = async (id: string) =>
      NotesChangesSchema.parse(JSON.parse(await stack.api(`/api/notes/changes?traceId=${id}`))).changes;
    await expect.poll(async () => (await changesOf(trace.id)).length, { timeout: 5_000 }).toBe(1);
    const changes = await changesOf(trace.id);
    expect(changes[0]).toMatchObject({
      event: "changed",
      traceId: trace.id,
      cause: { kind: "tool-call", exchangeId: call?.id, toolName: "write" },
    });
    expect(changes[0]?.before?.data).toBe("call the dentist\n");
    expect(changes[0]?.after?.data).toBe("buy milk");

    const bundle = parseTraceBundle(JSON.parse(await stack.api(`/api/traces/${trace.id}/export?format=hopscope`)));
    expect(bundle.notes?.map((c) => c.cause)).toEqual([
      { kind: "tool-call", traceId: trace.id, exchangeId: call?.id, toolName: "write" },
    ]);

    const imported = TraceSummarySchema.parse(
      JSON.parse(
        await stack.api("/api/import", {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify(bundle),
        }),
      ),
    );
    const copy = TraceSchema.parse(JSON.parse(await stack.api(`/api/traces/${imported.id}`)));
    const copiedCall = copy.exchanges.find(
      (x) => x.classification.kind === "mcp" && x.classification.method === "tools/call",
    );
    const again = NotesChangesSchema.parse(
      JSON.parse(await stack.api(`/api/notes/changes?traceId=${imported.id}`)),
    ).changes;
    expect(again.filter((c) => c.traceId === imported.id).map((c) => c.cause)).toEqual([
      { kind: "tool-call", traceId: imported.id, exchangeId: copiedCall?.id, toolName: "write" },
    ]);
  });

  it("sends the change with the trace on the live OTLP export, as an event of the tool call that made it", async () => {
    // Only the live trace is exported over OTLP (the first test also imported a copy of it, with the same name).
    await expect.poll(() => exported.some((b) => b.includes("hopscope.notes.changed")), { timeout: 10_000 }).toBe(true);
    const body = exported.filter((b) => b.includes("hopscope.notes.changed")).at(-1) as string;
    const spans = (
      JSON.parse(body) as {
        resourceSpans: { scopeSpans: { spans: { name: string; events?: { name: string }[] }[] }[] }[];
      }
    ).resourceSpans.flatMap((r) => r.scopeSpans.flatMap((s) => s.spans));
    const withChange = spans.filter((sp) => (sp.events ?? []).some((e) => e.name === "hopscope.notes.changed"));
    expect(withChange).toHaveLength(1);
    expect(withChange[0]!.name).toContain("write");
  });
});
