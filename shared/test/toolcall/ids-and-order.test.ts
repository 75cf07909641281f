import { describe, expect, it } from "vitest";
import { compareGoStrings, sortedArguments } from "@hopscope/shared/toolcall/arguments-order";
import { toolCallId } from "@hopscope/shared/toolcall/tool-call-id";

describe("toolCallId", () => {
  it('is "call_" and eight characters from [a-z0-9]', () => {
    for (let i = 0; i < 50; i++) expect(toolCallId()).toMatch(/^call_[a-z0-9]{8}$/);
  });

  it("draws from an injected random source", () => {
    expect(toolCallId(() => 0)).toBe("call_aaaaaaaa");
    expect(toolCallId(() => 0.999999)).toBe("call_99999999");
    const steps = [0, 25 / 36, 26 / 36, 35 / 36, 0.5, 0.1, 0.2, 0.3];
    expect(toolCallId(() => steps.shift()!)).toBe("call_az09sdhk");
  });

  it("rejects a random source outside [0, 1)", () => {
    expect(() => toolCallId(() => 1)).toThrow(/must return a number in \[0, 1\)/);
  });
});

describe("sortedArguments (Ollama <= 0.13.5 key order)", () => {
  it("sorts keys at every level and keeps arrays in order", () => {
    const sorted = sortedArguments({ unit: "c", location: { z: 1, a: [{ y: 1, b: 2 }] } });
    expect(JSON.stringify(sorted)).toBe('{"location":{"a":[{"b":2,"y":1}],"z":1},"unit":"c"}');
  });

  it("orders by code point as Go's byte order does, not by UTF-16 unit", () => {
    expect(["\uFF5E", "😀", "a"].sort(compareGoStrings)).toEqual(["a", "\uFF5E", "😀"]);
    expect(["ab", "a"].sort(compareGoStrings)).toEqual(["a", "ab"]);
  });
});
