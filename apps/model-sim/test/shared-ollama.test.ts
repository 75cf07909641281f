/** The helpers model-sim added under shared/src/ollama/, one behaviour per test. */
import { describe, expect, it } from "vitest";
import { LESSONS, LESSON_NOTES, LessonSchema, splitLessonSuffix } from "@hopscope/shared/ollama/lessons";
import { ndjsonLine } from "@hopscope/shared/ollama/ndjson";
import { QWEN25_DETAILS } from "@hopscope/shared/ollama/qwen25-facts";
import { ModelDetailsSchema } from "@hopscope/shared/ollama/schemas";
import { SimulatedVersionResponseSchema } from "@hopscope/shared/ollama/simulated";
import { parseNdjson } from "@hopscope/shared/framing/ndjson";
import { goJson } from "@hopscope/shared/json/go-json";

describe("shared/ollama helpers", () => {
  it("goJson escapes < > & U+2028 U+2029 as Go does, and nothing else", () => {
    expect(goJson({ a: "<tool_call> & \u2028\u2029", b: "é\n" })).toBe(
      '{"a":"\\u003ctool_call\\u003e \\u0026 \\u2028\\u2029","b":"é\\n"}',
    );
  });

  it("ndjsonLine ends with a newline, and its lines read back through parseNdjson", () => {
    const text = ndjsonLine({ done: false }) + ndjsonLine({ done: true });
    expect(text).toBe('{"done":false}\n{"done":true}\n');
    expect(parseNdjson(text, { onBadLine: "throw" })).toEqual([{ done: false }, { done: true }]);
  });

  it("splitLessonSuffix separates the model name from the lesson", () => {
    expect(splitLessonSuffix("qwen2.5:7b+lesson=loop")).toEqual({ model: "qwen2.5:7b", lesson: "loop" });
    expect(splitLessonSuffix("qwen2.5:7b")).toEqual({ model: "qwen2.5:7b", lesson: null });
  });

  it("every lesson has a note, and an unknown one is refused with the list", () => {
    expect(Object.keys(LESSON_NOTES).sort()).toEqual([...LESSONS].sort());
    const bad = LessonSchema.safeParse("nap");
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0]?.message).toContain("use one of write-instead-of-append");
  });

  it("the qwen2.5 details are a valid ModelDetails in Go field order; the simulated version body validates", () => {
    expect(Object.keys(ModelDetailsSchema.parse(QWEN25_DETAILS))).toEqual(Object.keys(QWEN25_DETAILS));
    expect(
      SimulatedVersionResponseSchema.safeParse({
        version: "0.13.5",
        hopscope: { simulated: true, simulator: "x", note: "y" },
      }).success,
    ).toBe(true);
    expect(SimulatedVersionResponseSchema.safeParse({ version: "0.13.5" }).success).toBe(false);
  });
});
