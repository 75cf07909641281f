/**
 * The notes file's changes in every export: HAR (`log._notesChanges`, read back on import, also through a
 * real recorder's POST /api/import), OTLP (a `hopscope.notes.changed` event on the tool call that caused
 * it) and Mermaid (a note over the file's participant, inside the call). The trace is the curated
 * write-instead-of-append lesson: `write` replaced "call the dentist" with "buy milk".
 */
import { readFile } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseTraceBundle, type TraceBundle } from "@hopscope/shared/trace/bundle";
import { NotesChangesSchema, type NotesChange } from "@hopscope/shared/trace/notes-file";
import { TraceSummarySchema } from "@hopscope/shared/trace/schemas";
import { exportHar, importHar } from "../../src/main/export/har";
import { TraceImportError } from "../../src/main/export/import-error";
import { exportMermaid } from "../../src/main/export/mermaid";
import { exportOtlp } from "../../src/main/export/otlp";
import { getJson, startRecorder, type TestRecorder } from "../helpers";
import { part4Bundle } from "./part4-fixture";

type Json = Record<string, any>;

const LESSON = new URL("../../../../traces/write-instead-of-append.hopscope.json", import.meta.url);

describe("notes-file changes in the exports", () => {
  let bundle: TraceBundle;
  let change: NotesChange;
  beforeAll(async () => {
    bundle = parseTraceBundle(JSON.parse(await readFile(LESSON, "utf8")));
    expect(bundle.notes).toHaveLength(1);
    change = bundle.notes![0] as NotesChange;
    expect(change.cause).toMatchObject({ kind: "tool-call", toolName: "write" });
  });

  it("HAR: carried in log._notesChanges and read back on import", () => {
    const text = exportHar(bundle);
    const har = JSON.parse(text) as Json;
    expect(har.log._notesChanges).toEqual(bundle.notes);
    expect(har.log.comment).toContain("1 notes-file change in _notesChanges");
    expect(importHar(text).notes).toEqual(bundle.notes);
    // Without hopscope's per-entry fields (a HAR another tool rewrote), the changes still come back.
    delete har.log.pages[0]._hopscope;
    for (const e of har.log.entries) delete e._hopscope;
    expect(importHar(JSON.stringify(har)).notes).toEqual(bundle.notes);
    // A trace without changes writes no field (and reads back without one).
    const plain = exportHar(part4Bundle());
    expect(JSON.parse(plain).log._notesChanges).toBeUndefined();
    expect(importHar(plain).notes).toBeUndefined();
  });

  it("HAR: a broken _notesChanges is refused with where it is broken", () => {
    const har = JSON.parse(exportHar(bundle)) as Json;
    har.log._notesChanges[0].event = "exploded";
    let message = "";
    try {
      importHar(JSON.stringify(har));
    } catch (err) {
      expect(err).toBeInstanceOf(TraceImportError);
      message = (err as Error).message;
    }
    expect(message).toMatch(/log\._notesChanges\[0\]\.event/);
  });

  it("OTLP: an event on the execute_tool span of the call that caused it, with sizes and cause", () => {
    const otlp = JSON.parse(exportOtlp(bundle)) as Json;
    const spans = otlp.resourceSpans.flatMap((r: Json) => r.scopeSpans.flatMap((s: Json) => s.spans)) as Json[];
    const withEvent = spans.filter((s) => s.events?.some((e: Json) => e.name === "hopscope.notes.changed"));
    expect(withEvent.map((s) => s.name)).toEqual(["execute_tool write"]);
    const event = withEvent[0]!.events.find((e: Json) => e.name === "hopscope.notes.changed") as Json;
    const attrs = Object.fromEntries(event.attributes.map((a: Json) => [a.key, Object.values(a.value)[0]]));
    expect(attrs).toMatchObject({
      "hopscope.notes.file": change.file,
      "hopscope.notes.event": "changed",
      "hopscope.notes.headline": "1 note deleted, 1 added",
      "hopscope.notes.destructive": true,
      "hopscope.notes.cause": "tool-call",
      "hopscope.notes.cause_text": "by tools/call write",
      "gen_ai.tool.name": "write",
    });
    // Sizes as OTLP/JSON writes integers (strings of int64).
    expect(Number(attrs["hopscope.notes.before_size"])).toBe(change.before?.size);
    expect(Number(attrs["hopscope.notes.after_size"])).toBe(change.after?.size);
    expect(Number(BigInt(event.timeUnixNano) / 1_000_000n)).toBe(Math.floor(change.at));
  });

  it("OTLP: a change no call of the trace caused is an event on the root span", () => {
    const unlinked: NotesChange = { ...change, id: 9, cause: { kind: "none" }, traceId: null };
    const otlp = JSON.parse(exportOtlp({ ...bundle, notes: [unlinked] })) as Json;
    const spans = otlp.resourceSpans.flatMap((r: Json) => r.scopeSpans.flatMap((s: Json) => s.spans)) as Json[];
    const root = spans.find((s) => !s.parentSpanId) as Json;
    expect(root.events.filter((e: Json) => e.name === "hopscope.notes.changed")).toHaveLength(1);
  });

  it("Mermaid: a note over the file's participant, inside the call that caused it", () => {
    const lines = exportMermaid(bundle).split("\n");
    expect(lines).toContain(`  participant Notes as ${change.file}`);
    const note = lines.findIndex((l) => l.startsWith("  Note over Notes: "));
    expect(lines[note]).toBe("  Note over Notes: ⚠ 1 note deleted, 1 added — by tools/call write");
    expect(lines[note - 1]).toMatch(/^ {2}Host->>MCP: \d+\. tools\/call write$/);
    expect(lines[note + 1]).toMatch(/^ {2}MCP-->>Host: /);
    // No changes, no fifth participant.
    expect(exportMermaid(part4Bundle())).not.toContain("Notes");
  });

  describe("through a real recorder", () => {
    let rec: TestRecorder;
    beforeAll(async () => {
      rec = await startRecorder({});
    });
    afterAll(() => rec?.close());

    it("a HAR imported over HTTP shows its notes-file change on the imported trace", async () => {
      const res = await getJson(`${rec.url}/api/import`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: exportHar(bundle),
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      const summary = TraceSummarySchema.parse(res.body);
      const changes = NotesChangesSchema.parse(
        (await getJson(`${rec.url}/api/notes/changes?traceId=${summary.id}`)).body,
      ).changes;
      expect(changes.map((c) => ({ event: c.event, before: c.before, after: c.after, cause: c.cause.kind }))).toEqual([
        { event: "changed", before: change.before, after: change.after, cause: "tool-call" },
      ]);
      // And the imported trace exports it again.
      const again = await fetch(`${rec.url}/api/traces/${summary.id}/export?format=har`);
      const har = JSON.parse(await again.text()) as Json;
      expect(har.log._notesChanges).toHaveLength(1);
      expect(har.log._notesChanges[0].after).toEqual(change.after);
    });
  });
});
