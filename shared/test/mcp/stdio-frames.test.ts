import { describe, expect, it } from "vitest";
import { StdioFramer } from "../../src/mcp/stdio-frames";

const enc = (s: string) => new TextEncoder().encode(s);
const dec = (b: Uint8Array) => new TextDecoder().decode(b);

describe("StdioFramer", () => {
  it("cuts lines across chunks, drops a CR before the newline, keeps the half line", () => {
    const f = new StdioFramer(1024);
    expect(f.push(enc('{"a":'))).toEqual([]);
    const frames = f.push(enc('1}\r\n{"b":2}\n{"c"'));
    expect(frames.map((x) => dec(x.bytes))).toEqual(['{"a":1}', '{"b":2}']);
    expect(frames[0]).toMatchObject({ size: 7, truncated: false });
    expect(dec(f.rest()!.bytes)).toBe('{"c"');
    expect(new StdioFramer(8).rest()).toBeNull();
  });

  it("keeps only the first cap bytes of a long line and counts the rest", () => {
    const f = new StdioFramer(4);
    f.push(enc("abcdef"));
    const [frame] = f.push(enc("gh\nxy\n"));
    expect(frame).toMatchObject({ size: 8, truncated: true });
    expect(dec(frame!.bytes)).toBe("abcd");
    expect(f.push(enc(""))).toEqual([]);
  });
});
