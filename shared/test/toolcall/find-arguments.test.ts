import { describe, expect, it } from "vitest";
import { findArguments, goUnmarshal } from "@hopscope/shared/toolcall/find-arguments";

describe("findArguments", () => {
  it.each<[string, string, Record<string, unknown> | null, string?]>([
    ["empty", "", null],
    ["whitespace only", "   \n\t  ", null],
    ["missing closing brace", '{"format": "fahrenheit", "location": "San Francisco"', null],
    ["extra closing brace", '{"format": "fahrenheit"}}', { format: "fahrenheit" }],
    ["unquoted keys", '{format: fahrenheit, location: "San Francisco"}', null],
    [
      "name and arguments",
      '{"name": "get_temperature", "arguments": {"format": "fahrenheit"}}',
      { format: "fahrenheit" },
    ],
    ["object between special tokens", '[tool]get_temperature[args]{"location": "Oslo"}[end]', { location: "Oslo" }],
    ["inside an array", '[{"name": "get_temperature", "arguments": {"location": "Oslo"}}', { location: "Oslo" }],
    ["nested wrapper", '{"function": {"name": "x", "arguments": {"location": "Oslo"}}}', { location: "Oslo" }],
    ["wrapper list", '{"calls": [1, {"name": "x", "arguments": {"n": 1}}]}', { n: 1 }],
    ["call syntax", 'get_temperature({"location": "San Francisco, CA"})', { location: "San Francisco, CA" }],
    ["first of two objects", '{"name": "a", "arguments": {"n": 1}} {"name": "b", "arguments": {"n": 2}}', { n: 1 }],
    ["tail of a call", '"arguments": {"location": "Tokyo"}}</tool_call>', { location: "Tokyo" }],
    [
      "string with braces",
      '{"name": "p", "arguments": {"code": "if (x > 0) { return true; }"}}',
      { code: "if (x > 0) { return true; }" },
    ],
    [
      "escaped quotes and braces",
      '{"name": "a", "arguments": {"text": "JSON: {\\"key\\": \\"val{ue}\\"}"}}',
      { text: 'JSON: {"key": "val{ue}"}' },
    ],
    ["unmatched brace in string", '{"name": "s", "arguments": {"pattern": "regex: }"}}', { pattern: "regex: }" }],
    ["backslash before quote", '{"name": "p", "arguments": {"dir": "C:\\\\{App}\\\\"}}', { dir: "C:\\{App}\\" }],
    ["unicode escapes of braces", '{"name": "t", "arguments": {"text": "\\u007B and \\u007D"}}', { text: "{ and }" }],
    ["incomplete string at the end", '{"name": "t", "arguments": {"data": "some {"', null],
    ["array arguments", '{"name": "batch", "arguments": ["a", "b"]}', null],
    ["stringified arguments", '{"name": "t", "arguments": "{\\"city\\": \\"Oslo\\"}"}', { city: "Oslo" }],
    ["stringified parameters", '{"name": "t", "parameters": "{\\"city\\": \\"Oslo\\"}"}', { city: "Oslo" }],
    ["unparsable string arguments", '{"name": "t", "arguments": "{city: Oslo}"}', null],
    ["key equal to the tool name", '{"get_temperature": {"city": "Oslo"}}', { city: "Oslo" }, "get_temperature"],
    [
      "stringified under the tool name",
      '{"get_temperature": "{\\"city\\": \\"Oslo\\"}"}',
      { city: "Oslo" },
      "get_temperature",
    ],
    ["no wrapper at all", '{"city": "Oslo"}', { city: "Oslo" }, "get_temperature"],
    ["skips an object that does not decode", '{bad} {"name": "t", "arguments": {"ok": true}}', { ok: true }],
  ])("%s", (_label, buffer, want, tool = "") => {
    expect(findArguments(tool, buffer).args).toEqual(want);
  });

  it("reports the offset of the closing brace", () => {
    const buffer = '<tool_call>\n{"name": "t", "arguments": {}}\n</tool_call>';
    expect(findArguments("t", buffer).end).toBe(buffer.indexOf("}}") + 1);
    expect(findArguments("t", "no object").end).toBe(0);
  });

  it("keeps a __proto__ key as data", () => {
    const args = findArguments("t", '{"name": "t", "arguments": {"__proto__": {"x": 1}}}').args!;
    expect(Object.keys(args)).toEqual(["__proto__"]);
    expect(Object.getPrototypeOf(args)).toBe(Object.prototype);
  });
});

describe("goUnmarshal", () => {
  it("fails where Go fails and replaces lone surrogates as Go does", () => {
    expect(goUnmarshal("{")).toBeUndefined();
    expect(goUnmarshal('{"n": 1e400}')).toBeUndefined();
    expect(goUnmarshal('{"s": "\\ud800x"}')).toEqual({ s: "\uFFFDx" });
    expect(goUnmarshal('{"s": "\\ud83e\\udd5b"}')).toEqual({ s: "🥛" });
  });
});
