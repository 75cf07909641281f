import { describe, expect, it } from "vitest";
import {
  MIGRATIONS,
  TRACE_BUNDLE_VERSION,
  formatBundleError,
  parseTraceBundle,
  upgradeBundleDocument,
  type TraceBundle,
} from "@hopscope/shared/trace/bundle";
import type { Exchange } from "@hopscope/shared/trace/schemas";

const TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736";

function exchange(id: number, seq: number): Exchange {
  const text = JSON.stringify({ message: "Add buy milk to my notes" });
  return {
    id,
    traceId: TRACE_ID,
    seq,
    tap: "agent",
    method: "POST",
    url: "/agent",
    upstream: "http://127.0.0.1:8081",
    status: 200,
    state: "complete",
    error: null,
    timings: {
      start: 1_795_983_303_120.25,
      requestEnd: 1_795_983_303_120.6,
      firstByte: 1_795_983_304_750,
      end: 1_795_983_304_751,
    },
    requestSize: text.length,
    responseSize: 2,
    chunkCount: 1,
    classification: { kind: "agent", message: "Add buy milk to my notes" },
    requestHeaders: [["Content-Type", "application/json"]],
    requestBody: { encoding: "utf8", data: text, size: text.length, storedSize: text.length, truncated: false },
    responseHeaders: [["content-type", "application/json"]],
    responseBody: { encoding: "base64", data: "e30=", size: 2, storedSize: 2, truncated: false },
    chunks: [{ index: 0, t: 1630, offset: 0, size: 2 }],
  };
}

function bundle(): TraceBundle {
  const exchanges = [exchange(1, 1), exchange(2, 2)];
  return {
    format: "hopscope-trace",
    version: 1,
    exportedAt: "2026-11-29T20:20:00.000Z",
    generator: { name: "hopscope", version: "0.1.0" },
    trace: {
      id: TRACE_ID,
      name: "Add buy milk to my notes",
      source: "live",
      createdAt: 1_795_983_303_120.25,
      updatedAt: 1_795_983_304_751,
      exchangeCount: 2,
      errorCount: 0,
      groupedBy: "traceparent",
      simulated: true,
      savedAs: null,
      exchanges: exchanges.map(({ requestHeaders, requestBody, responseHeaders, responseBody, chunks, ...s }) => s),
      links: [{ kind: "tool-call", from: 1, to: 2, toolName: "append", toolCallIndex: 0 }],
    },
    exchanges,
  };
}

/** The formatted error of parsing `input`, or a failure if it parses. */
function errorOf(input: unknown): string {
  try {
    parseTraceBundle(input);
  } catch (err) {
    return formatBundleError(err);
  }
  throw new Error("expected parseTraceBundle to throw");
}

describe("parseTraceBundle", () => {
  it("reads a version 1 file unchanged, base64 bodies included", () => {
    const b = bundle();
    expect(parseTraceBundle(JSON.parse(JSON.stringify(b)))).toEqual(b);
  });

  it("reads version 1 as the current version (no migration needed yet)", () => {
    expect(TRACE_BUNDLE_VERSION).toBe(1);
    expect(Object.keys(MIGRATIONS)).toEqual([]);
  });

  it("refuses what is not a JSON object", () => {
    expect(errorOf([1, 2])).toBe(
      '(file): expected a hopscope trace file (a JSON object with "format": "hopscope-trace"), got array',
    );
  });

  it("refuses another format, naming the field", () => {
    expect(errorOf({ ...bundle(), format: "har" })).toBe(
      'format: expected "hopscope-trace", got "har": this is not a hopscope trace file',
    );
  });

  it("refuses a newer version and says to update", () => {
    expect(errorOf({ ...bundle(), version: 2 })).toBe(
      "version: this file is version 2, but this hopscope reads versions 1 to 1: update hopscope to open it",
    );
  });

  it("refuses a version that is not a whole number", () => {
    expect(errorOf({ ...bundle(), version: "1" })).toBe('version: expected a whole number from 1 to 1, got "1"');
  });

  it("names the path and the allowed values of a bad enum", () => {
    const b = bundle() as unknown as { exchanges: { requestBody: { encoding: string } }[] };
    b.exchanges[1]!.requestBody.encoding = "latin1";
    expect(errorOf(b)).toBe('exchanges[1].requestBody.encoding: expected "utf8" or "base64", got "latin1"');
  });

  it("says when a required field is missing", () => {
    const b = bundle() as unknown as { trace: Record<string, unknown> };
    delete b.trace.name;
    expect(errorOf(b)).toBe("trace.name: required string is missing");
  });

  it("names a wrong type with the value found", () => {
    const b = bundle() as unknown as { exchanges: { chunks: { t: unknown }[] }[] };
    b.exchanges[0]!.chunks[0]!.t = "fast";
    expect(errorOf(b)).toBe('exchanges[0].chunks[0].t: expected number, got "fast"');
  });

  it("refuses a file that disagrees with itself", () => {
    const b = bundle();
    b.exchanges[1] = { ...b.exchanges[1]!, traceId: "other" };
    b.trace.links = [{ kind: "tool-result", from: 2, to: 9, toolName: "append" }];
    expect(errorOf(b).split("\n")).toEqual([
      `exchanges[1].traceId: expected "${TRACE_ID}" (the id of trace), got "other"`,
      'trace.links[0].to: link points to exchange 9, which is not in "exchanges"',
    ]);
  });

  it("refuses an exportedAt that is not an ISO date", () => {
    expect(errorOf({ ...bundle(), exportedAt: "yesterday" })).toBe(
      'exportedAt: expected an ISO 8601 date-time such as 2026-11-29T20:15:03.120Z, got "yesterday"',
    );
  });
});

describe("upgradeBundleDocument", () => {
  // A made-up history: v2 renamed `trace` to `recording`, v3 added `tags`. Reading v1 must run both steps in order.
  const migrations = {
    1: (d: Record<string, unknown>) => {
      const { trace, ...rest } = d;
      return { ...rest, version: 2, recording: trace };
    },
    2: (d: Record<string, unknown>) => ({ ...d, version: 3, tags: [] }),
  };

  it("upgrades an old document one version at a time", () => {
    const v1 = { format: "hopscope-trace", version: 1, trace: { id: "t" } };
    expect(upgradeBundleDocument(v1, 1, migrations, 3)).toEqual({
      format: "hopscope-trace",
      version: 3,
      recording: { id: "t" },
      tags: [],
    });
    expect(upgradeBundleDocument({ version: 2, recording: {} }, 2, migrations, 3)).toEqual({
      version: 3,
      recording: {},
      tags: [],
    });
  });

  it("leaves a current document alone", () => {
    const doc = { version: 1 };
    expect(upgradeBundleDocument(doc, 1)).toBe(doc);
  });

  it("fails loudly when a step is missing", () => {
    expect(() => upgradeBundleDocument({ version: 1 }, 1, { 1: migrations[1] }, 3)).toThrow(
      "no migration from trace file version 2 to 3",
    );
  });
});

describe("formatBundleError", () => {
  it("lists at most ten problems and counts the rest", () => {
    const b = bundle() as unknown as { exchanges: unknown[] };
    b.exchanges = Array.from({ length: 12 }, () => ({}));
    const lines = errorOf(b).split("\n");
    expect(lines).toHaveLength(11);
    expect(lines[10]).toMatch(/^… and \d+ more problems$/);
  });

  it("gives the message of errors that are not validation errors", () => {
    expect(formatBundleError(new Error("disk full"))).toBe("disk full");
  });
});
