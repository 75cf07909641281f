/** Big answers in pieces (src/main/json-pieces.ts): the pieces join to exactly what JSON.stringify writes. */
import { describe, expect, it } from "vitest";
import { scriptSafeJson } from "@hopscope/shared/trace/share";
import { RawJson, collectPieces, jsonPieces, piecesBody } from "../src/main/json-pieces";

const long = "é<\u2028".repeat(50_000);
/** Longer than a slice, with a surrogate pair across every possible cut and a lone surrogate. */
const huge = `${"a🎉\ud800".repeat(300_001)}"\\`;
const VALUES: unknown[] = [
  null,
  0,
  -1.5,
  Number.NaN,
  "",
  'a"b\\c\n',
  long,
  [],
  {},
  [1, undefined, () => 1, null, "x"],
  { a: undefined, b: 1, c: { d: [long, { e: "f" }] }, g: new Date(0), 'k"ey': true, h: [[], [{}]] },
  [huge, huge.slice(1), huge.slice(2), huge.slice(3)],
];

describe("JSON in pieces", () => {
  it("joins to JSON.stringify's text, and to scriptSafeJson's", () => {
    for (const v of VALUES) {
      expect([...jsonPieces(v)].join("")).toBe(JSON.stringify(v));
      expect([...jsonPieces(v, scriptSafeJson)].join("")).toBe(scriptSafeJson(v));
    }
  });

  it("splices raw JSON in as it is, cuts at long strings, and streams the same bytes", async () => {
    const value = { a: new RawJson('{"ids":[1,2]}'), b: [long, long], c: "short" };
    const pieces = await collectPieces(jsonPieces(value));
    expect(pieces.join("")).toBe(JSON.stringify({ a: { ids: [1, 2] }, b: [long, long], c: "short" }));
    expect(pieces.length).toBeGreaterThanOrEqual(3);
    const body = await new Response(piecesBody(pieces)).text();
    expect(body).toBe(pieces.join(""));
  });
});
