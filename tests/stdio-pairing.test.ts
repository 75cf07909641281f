/** The stdio tap's bookkeeping on its own: which frames pair, which are flagged, what an exit leaves. */
import { describe, expect, it } from "vitest";
import type { StdioFrame } from "@hopscope/shared/mcp/stdio-frames";
import { StdioPairing } from "../scripts/cli/stdio/pairing";

const frame = (text: string, cut?: number): StdioFrame => {
  const bytes = new TextEncoder().encode(text);
  return cut === undefined
    ? { bytes, size: bytes.length, truncated: false }
    : { bytes: bytes.subarray(0, cut), size: bytes.length, truncated: true };
};
const msg = (m: object) => frame(JSON.stringify({ jsonrpc: "2.0", ...m }));

describe("StdioPairing", () => {
  it("pairs requests of either side with their answers and leaves notifications alone", () => {
    const p = new StdioPairing(1024);
    expect(p.frame("stdin", msg({ id: 1, method: "tools/list" }), 10)).toMatchObject([
      { type: "request", key: "stdin:1", stream: "stdin" },
    ]);
    expect(p.frame("stdout", msg({ method: "notifications/progress" }), 11)).toMatchObject([
      { type: "line", stream: "stdout" },
    ]);
    expect(p.frame("stdout", msg({ id: "r1", method: "roots/list" }), 12)).toMatchObject([
      { type: "request", key: 'stdout:"r1"' },
    ]);
    expect(p.frame("stdin", msg({ id: "r1", result: { roots: [] } }), 13)).toMatchObject([
      { type: "answered", stream: "stdout", at: 12, answerAt: 13 },
    ]);
    const [answered] = p.frame("stdout", msg({ id: 1, result: { tools: [] } }), 20);
    expect(answered).toMatchObject({
      type: "answered",
      key: "stdin:1",
      at: 10,
      answerAt: 20,
      request: { encoding: "utf8", data: expect.stringContaining("tools/list") },
    });
  });

  it("flags what is not JSON-RPC and answers nobody asked for, and records the stderr lines", () => {
    const p = new StdioPairing(1024);
    expect(p.frame("stdout", frame("Server started on stdio"), 1)).toMatchObject([
      { type: "line", flag: expect.stringMatching(/not a JSON-RPC message.*logs belong on stderr/) },
    ]);
    expect(p.frame("stdout", msg({ id: 9, result: {} }), 2)).toMatchObject([
      { type: "line", flag: expect.stringMatching(/no request on stdin asked for/) },
    ]);
    expect(p.frame("stderr", frame("debug: hi"), 3)).toEqual([
      { type: "line", stream: "stderr", at: 3, frame: { encoding: "utf8", data: "debug: hi", size: 9 } },
    ]);
    expect(p.frame("stdin", frame(""), 4)).toEqual([]);
  });

  it("pairs a frame too long to parse from its start, and cuts what it sends", () => {
    const p = new StdioPairing(16);
    p.frame("stdin", msg({ id: 7, method: "big" }), 1);
    const text = JSON.stringify({ jsonrpc: "2.0", id: 7, result: { text: "x".repeat(100) } });
    const [answered] = p.frame("stdout", frame(text, 40), 2);
    expect(answered).toMatchObject({ type: "answered", key: "stdin:7", answer: { size: text.length } });
    expect(answered?.type === "answered" && answered.answer?.data.length).toBe(16);
  });

  it("ends with the half lines, the unanswered requests and the exit code", () => {
    const p = new StdioPairing(1024);
    p.frame("stdin", msg({ id: 1, method: "tools/call" }), 1);
    const events = p.end([{ stream: "stdout", frame: frame('{"jsonrpc":"2.0","id":1,"res') }], 3, null, 5);
    expect(events.map((e) => e.type)).toEqual(["line", "answered", "exit"]);
    expect(events[0]).toMatchObject({
      flag: "half a line: 28 bytes on stdout without a newline when the server exited with code 3",
    });
    expect(events[1]).toMatchObject({ answer: null, error: "the server exited with code 3 before answering" });
    expect(events[2]).toEqual({ type: "exit", at: 5, code: 3, signal: null });
  });
});
