import { describe, expect, it } from "vitest";
import { DEFAULT_MAX_DEPTH, JsonLimitError, depthExceededAt, parseJson } from "../../src/json/parse";
import { goUnmarshal } from "../../src/toolcall/find-arguments";
import { tryParseJson } from "@hopscope/shared/json/parse";

const nested = (n: number) => "[".repeat(n) + "]".repeat(n);

describe("parseJson: the one depth- and size-limited parse", () => {
  it("parses what JSON.parse parses under the limits", () => {
    for (const text of ['{"a":[1,{"b":"c"}]}', "1", '"x"', "null", nested(DEFAULT_MAX_DEPTH)])
      expect(parseJson(text)).toEqual(JSON.parse(text));
  });

  it("refuses a 100,000-deep text before anything walks it, saying where and how deep", () => {
    const err = (() => {
      try {
        parseJson(nested(100_000));
      } catch (e) {
        return e;
      }
    })();
    expect(err).toBeInstanceOf(JsonLimitError);
    expect((err as JsonLimitError).message).toBe(
      `JSON nested deeper than 1000 levels (at character 1000); flatten the data`,
    );
    expect(() => parseJson(nested(11), { maxDepth: 10 })).toThrow(JsonLimitError);
    expect(() => parseJson(nested(10), { maxDepth: 10 })).not.toThrow();
  });

  it("counts brackets outside strings only, escapes included", () => {
    expect(depthExceededAt(`["${"[".repeat(50)}\\"${"{".repeat(50)}"]`, 2)).toBe(-1);
    expect(depthExceededAt('{"a":{"b":[]}}', 2)).toBe(10);
    // An escaped backslash before the quote: the string ends there, and the brackets after it count.
    expect(depthExceededAt('["a\\\\", [[[]]], "b"]', 2)).toBe(9);
    expect(depthExceededAt('"unterminated [[[[', 1)).toBe(-1);
  });

  it("refuses a text over maxLength, and still throws SyntaxError for text that is not JSON", () => {
    expect(() => parseJson('{"a":1}', { maxLength: 3 })).toThrow(/longer than the limit of 3/);
    expect(() => parseJson("{nope")).toThrow(SyntaxError);
  });

  it("keeps the recorded-body helpers and Go's tool-call decoder off the stack's limit", () => {
    expect(tryParseJson(nested(100_000))).toBeUndefined();
    expect(goUnmarshal(`{"a":${nested(100_000)}}`)).toBeUndefined();
    expect(goUnmarshal(`{"a":${nested(100)}}`)).toEqual({ a: JSON.parse(nested(100)) });
  });
});
