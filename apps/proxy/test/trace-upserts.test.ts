/**
 * The store writes one trace upsert per trace per batch: the traces table must end up exactly as if each
 * exchange had upserted its trace in order (names by rank, time span, grouping upgrade), on a real SQLite file.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { openDb, type Db } from "../src/recording/db";
import { UPSERT_TRACE_SQL, chunksJson, metaJson, traceParams } from "../src/recording/write-sql";
import { BodyMetaSchema, type BodyMeta } from "../src/recording/rows";
import type { ExchangeRecord } from "../src/link/exchange-record";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function db(): Db {
  const dir = mkdtempSync(path.join(tmpdir(), "hopscope-upserts-"));
  dirs.push(dir);
  return openDb(path.join(dir, "t.sqlite"));
}

let id = 0;
function rec(
  traceId: string,
  start: number,
  end: number | null,
  title: string,
  titleRank: number,
  groupedBy: ExchangeRecord["groupedBy"],
): ExchangeRecord {
  return {
    summary: {
      id: ++id,
      traceId,
      seq: id,
      tap: "model",
      method: "POST",
      url: "/api/chat",
      upstream: "http://x",
      status: 200,
      state: "complete",
      error: null,
      timings: { start, requestEnd: start, firstByte: start, end },
      requestSize: 0,
      responseSize: 0,
      chunkCount: 0,
      classification: { kind: "other" },
    },
    requestHeaders: [],
    responseHeaders: [],
    requestBody: null,
    requestTools: null,
    responseBody: null,
    chunks: [],
    toolMessages: null,
    simulated: null,
    title,
    titleRank,
    groupedBy,
    source: "live",
  };
}

const rows = (d: Db) =>
  d.prepare("SELECT id, name, name_rank, source, created_at, updated_at, grouped_by FROM traces ORDER BY id").all();

describe("one trace upsert per trace per batch", () => {
  it("ends as upserting after every exchange in order would", () => {
    const batches = [
      [
        rec("a", 10, 12, "POST /api/chat", 0, "single"),
        rec("b", 5, null, "tools/call append", 0, "session"),
        rec("a", 8, 20, "Add buy milk", 1, "conversation"),
      ],
      [
        rec("a", 30, 31, "Add eggs", 1, "single"),
        rec("c", 1, 2, "first", 2, "traceparent"),
        rec("c", 3, 4, "second", 2, "traceparent"),
        rec("b", 6, 9, "x", 0, "session"),
      ],
      [rec("a", 40, 41, "the agent's question", 2, "single"), rec("a", 2, 3, "late", 2, "single")],
    ];
    const oneByOne = db();
    const upsert1 = oneByOne.prepare(UPSERT_TRACE_SQL);
    for (const batch of batches) for (const r of batch) upsert1.run(traceParams([r])[0]);
    const batched = db();
    const upsert2 = batched.prepare(UPSERT_TRACE_SQL);
    for (const batch of batches) for (const p of traceParams(batch)) upsert2.run(p);
    expect(rows(batched)).toEqual(rows(oneByOne));
    // What that is, spelled out for trace a: the first best name, the whole span, upgraded to conversation.
    expect(rows(batched)[0]).toMatchObject({
      id: "a",
      name: "the agent's question",
      name_rank: 2,
      created_at: 2,
      updated_at: 41,
      grouped_by: "conversation",
    });
    expect(traceParams(batches[1]!)).toHaveLength(3);
  });
});

describe("a body's meta column", () => {
  it("is the JSON of its BodyMeta, whatever the content type holds", () => {
    for (const contentType of ["application/json", 'text/plain; name="a\\"b"', "ünï\u2028", null]) {
      for (const [encoding, truncated] of [
        ["utf8", false],
        ["base64", true],
      ] as const) {
        const b = { data: "x", encoding, size: 12, storedSize: 10, truncated, contentType };
        const meta: BodyMeta = { encoding, size: 12, storedSize: 10, truncated, contentType };
        expect(metaJson(b)).toBe(JSON.stringify(meta));
        expect(BodyMetaSchema.parse(JSON.parse(metaJson(b)))).toEqual(meta);
      }
    }
    expect(metaJson(null)).toBe("null");
  });
});

describe("a chunk list's column", () => {
  it("is the JSON of the chunks", () => {
    const lists = [
      [],
      [{ index: 0, t: 0.2134567891234, offset: 0, size: 450 }],
      [
        { index: 0, t: 12, offset: 0, size: 1 },
        { index: 1, t: 1e-7, offset: 1, size: 65536 },
        { index: 2, t: 123456789.5, offset: 65537, size: 0 },
      ],
    ];
    for (const chunks of lists) expect(chunksJson(chunks)).toBe(JSON.stringify(chunks));
    // Not a JSON number: written as JSON.stringify writes it (null), not as "NaN".
    const odd = [{ index: 0, t: Number.NaN, offset: 0, size: 1 }];
    expect(JSON.parse(chunksJson(odd))).toEqual([{ index: 0, t: null, offset: 0, size: 1 }]);
  });
});
