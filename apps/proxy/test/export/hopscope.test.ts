import { describe, expect, it } from "vitest";
import { parseTraceBundle } from "@hopscope/shared/trace/bundle";
import { createTraceBundle, exportHopscope, importHopscope } from "../../src/main/export/hopscope";
import { TraceImportError } from "../../src/main/export/import-error";
import { faultBundle } from "./fault-fixture";
import { part4Bundle } from "./part4-fixture";

function importError(text: string): TraceImportError {
  try {
    importHopscope(text);
  } catch (err) {
    expect(err).toBeInstanceOf(TraceImportError);
    return err as TraceImportError;
  }
  throw new Error("expected importHopscope to throw");
}

describe("hopscope trace file", () => {
  it("round-trips the Part 4 trace exactly", () => {
    const bundle = part4Bundle();
    expect(importHopscope(exportHopscope(bundle))).toEqual(bundle);
  });

  it("round-trips failures, base64 bodies and aborted streams exactly", () => {
    const bundle = faultBundle();
    const text = exportHopscope(bundle);
    expect(text).toContain('"encoding": "base64"');
    expect(importHopscope(text)).toEqual(bundle);
  });

  it("stamps a bundle with this build and the time", () => {
    const { trace, exchanges } = part4Bundle();
    const bundle = createTraceBundle(trace, exchanges, new Date("2026-11-29T21:00:00Z"));
    expect(bundle.exportedAt).toBe("2026-11-29T21:00:00.000Z");
    expect(bundle.generator.name).toBe("hopscope");
    expect(bundle.generator.version).toMatch(/^\d+\.\d+\.\d+/);
    expect(parseTraceBundle(bundle)).toEqual(bundle);
  });

  it("refuses to write a bundle that import would refuse", () => {
    const bundle = part4Bundle();
    bundle.exchanges[0] = { ...bundle.exchanges[0]!, traceId: "someone-else" };
    expect(() => exportHopscope(bundle)).toThrow(/traceId/);
  });

  it("says when the file is not JSON", () => {
    expect(importError("{ not json").message).toMatch(/^not a hopscope trace file: the file is not valid JSON \(/);
  });

  it("says when the file is another format", () => {
    expect(importError(JSON.stringify({ format: "chrome-trace", version: 1 })).message).toBe(
      'invalid hopscope trace file:\nformat: expected "hopscope-trace", got "chrome-trace": this is not a hopscope trace file',
    );
  });

  it("says when the file is from a newer hopscope", () => {
    const text = JSON.stringify({ ...part4Bundle(), version: 3 });
    expect(importError(text).message).toContain(
      "version: this file is version 3, but this hopscope reads versions 1 to 1: update hopscope",
    );
  });

  it("names each invalid field", () => {
    const bundle = JSON.parse(exportHopscope(part4Bundle()));
    bundle.exchanges[3].requestBody.encoding = "binary";
    bundle.exchanges[2].status = "200";
    const err = importError(JSON.stringify(bundle));
    expect(err.format).toBe("hopscope");
    expect(err.message.split("\n")).toEqual([
      "invalid hopscope trace file:",
      'exchanges[2].status: expected number, got "200"',
      'exchanges[3].requestBody.encoding: expected "utf8" or "base64", got "binary"',
    ]);
  });
});
