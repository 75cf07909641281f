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

describe("notes-file changes in the trace", () => {
  let stack: RecorderStack;
  beforeAll(async () => {
    stack = await startRecorderStack({ lesson: "write-instead-of-append", notes: "call the dentist\n" });
  });
  afterAll(async () => {
    await stack?.close();
  });

  it("records the write on its tools/call, and keeps it through export and import", async () => {
    await stack.ask("Add buy milk to my notes");
    const trace = await stack.waitForTrace("Add buy milk to my notes");
    const call = trace.exchanges.find((x) => x.classification.kind === "mcp" && x.classification.method === "tools/call");
    expect(call?.classification).toMatchObject({ toolName: "write" });
    // The cause is decided a moment after the change is seen (the recorder catches up first): poll for it.
    const changesOf = async (id: string) => NotesChangesSchema.parse(JSON.parse(await stack.api(`/api/notes/changes?traceId=${id}`))).changes;
    await expect.poll(async () => (await changesOf(trace.id)).length, { timeout: 5_000 }).toBe(1);
    const changes = await changesOf(trace.id);
    expect(changes[0]).toMatchObject({ event: "changed", traceId: trace.id, cause: { kind: "tool-call", exchangeId: call?.id, toolName: "write" } });
    expect(changes[0]?.before?.data).toBe("call the dentist\n");
    expect(changes[0]?.after?.data).toBe("buy milk");

    const bundle = parseTraceBundle(JSON.parse(await stack.api(`/api/traces/${trace.id}/export?format=hopscope`)));
    expect(bundle.notes?.map((c) => c.cause)).toEqual([{ kind: "tool-call", traceId: trace.id, exchangeId: call?.id, toolName: "write" }]);

    const imported = TraceSummarySchema.parse(JSON.parse(await stack.api("/api/import", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(bundle) })));
    const copy = TraceSchema.parse(JSON.parse(await stack.api(`/api/traces/${imported.id}`)));
    const copiedCall = copy.exchanges.find((x) => x.classification.kind === "mcp" && x.classification.method === "tools/call");
    const again = NotesChangesSchema.parse(JSON.parse(await stack.api(`/api/notes/changes?traceId=${imported.id}`))).changes;
    expect(again.filter((c) => c.traceId === imported.id).map((c) => c.cause)).toEqual([{ kind: "tool-call", traceId: imported.id, exchangeId: copiedCall?.id, toolName: "write" }]);
  });
});
