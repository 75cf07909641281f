import { describe, expect, it } from "vitest";
import { HarSchema } from "../../src/main/export/har-schema";
import { TraceImportError } from "../../src/main/export/import-error";
import { exportTrace, importTraceFile, traceSlug } from "../../src/main/export/trace-file";
import { part4Bundle } from "./part4-fixture";

function importError(text: string): TraceImportError {
  try {
    importTraceFile(text);
  } catch (err) {
    expect(err).toBeInstanceOf(TraceImportError);
    return err as TraceImportError;
  }
  throw new Error("expected importTraceFile to throw");
}

describe("exportTrace", () => {
  it("names each format's file after the trace", () => {
    const bundle = part4Bundle();
    expect(exportTrace(bundle, "hopscope")).toMatchObject({
      fileName: "add-buy-milk-to-my-notes.hopscope.json",
      contentType: "application/json; charset=utf-8",
    });
    expect(exportTrace(bundle, "har").fileName).toBe("add-buy-milk-to-my-notes.har");
    expect(exportTrace(bundle, "otlp").fileName).toBe("add-buy-milk-to-my-notes.otlp.json");
    expect(exportTrace(bundle, "mermaid")).toMatchObject({
      fileName: "add-buy-milk-to-my-notes.mmd",
      contentType: "text/plain; charset=utf-8",
    });
  });

  it("writes each format's content", () => {
    const bundle = part4Bundle();
    expect(JSON.parse(exportTrace(bundle, "hopscope").body).format).toBe("hopscope-trace");
    expect(HarSchema.safeParse(JSON.parse(exportTrace(bundle, "har").body)).success).toBe(true);
    expect(JSON.parse(exportTrace(bundle, "otlp").body).resourceSpans).toHaveLength(1);
    expect(exportTrace(bundle, "mermaid").body.startsWith("sequenceDiagram\n")).toBe(true);
  });

  it("falls back to the trace id for a name without letters or digits", () => {
    const bundle = part4Bundle();
    bundle.trace.name = "¿¿ !!";
    expect(traceSlug(bundle)).toBe(bundle.trace.id);
  });
});

describe("importTraceFile", () => {
  it("tells a hopscope trace file from a HAR file", () => {
    const bundle = part4Bundle();
    expect(importTraceFile(exportTrace(bundle, "hopscope").body)).toEqual({ format: "hopscope", bundle });
    expect(importTraceFile(exportTrace(bundle, "har").body)).toEqual({ format: "har", bundle });
  });

  it("says what it expected for a file that is neither", () => {
    expect(importError(exportTrace(part4Bundle(), "otlp").body).message).toBe(
      'not a trace file: expected a hopscope trace file (a JSON object with "format": "hopscope-trace") or a HAR file (a JSON object with "log")',
    );
    expect(importError("sequenceDiagram").message).toMatch(/^not a trace file: .* but the file is not valid JSON/);
  });

  it("passes on the reader's error for a broken file of a known format", () => {
    const err = importError(JSON.stringify({ format: "hopscope-trace", version: 9 }));
    expect(err.format).toBe("hopscope");
    expect(err.message).toContain("version: this file is version 9");
  });
});
