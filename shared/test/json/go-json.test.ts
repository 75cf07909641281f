import { describe, expect, it } from "vitest";
import { goJson, goJsonSorted } from "../../src/json/go-json";

describe("goJson and goJsonSorted (Go encoding/json)", () => {
  const value = { z: 1, a: { y: [true, null], b: "<b> & \u2028" }, é: -0 };

  it("goJson keeps the object's key order, as Go marshals a struct", () => {
    expect(goJson(value)).toBe('{"z":1,"a":{"y":[true,null],"b":"\\u003cb\\u003e \\u0026 \\u2028"},"é":-0}');
  });

  it("goJsonSorted sorts keys at every level by UTF-8 bytes, as Go marshals a map", () => {
    expect(goJsonSorted(value)).toBe('{"a":{"b":"\\u003cb\\u003e \\u0026 \\u2028","y":[true,null]},"z":1,"é":-0}');
    // U+FFFD sorts before U+1F600 in UTF-8 but after its surrogates in UTF-16.
    expect(goJsonSorted({ "😀": 1, "\ufffd": 2 })).toBe('{"\ufffd":2,"😀":1}');
  });

  it("leaves out undefined properties, writes null for undefined array items, and U+FFFD for a lone surrogate", () => {
    expect(goJson({ a: undefined, b: [undefined], c: "x\ud800y" })).toBe('{"b":[null],"c":"x\ufffdy"}');
  });

  it("refuses what Go cannot marshal, naming it", () => {
    expect(() => goJson({ n: NaN })).toThrow(/unsupported value: NaN/);
    expect(() => goJson(undefined)).toThrow(/unsupported type: undefined/);
  });
});
