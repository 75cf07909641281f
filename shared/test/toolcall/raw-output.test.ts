import { describe, expect, it } from "vitest";
import type { ChatResponse } from "@hopscope/shared/ollama/schemas";
import { parseToolCalls } from "@hopscope/shared/toolcall/parser";
import {
  RAW_OUTPUT_NOTE,
  pythonJson,
  rawOutputFromChunks,
  rawOutputFromMessage,
  writeRawToolCalls,
  type RawOutputMessage,
} from "@hopscope/shared/toolcall/raw-output";
import { ARTICLE_RAW, TOOLS } from "./tools";

const append = (content: string) => ({ function: { name: "append", arguments: { content } } });

describe("rawOutputFromMessage", () => {
  it("rebuilds the article's raw output exactly", () => {
    const msg = {
      role: "assistant",
      content: "",
      tool_calls: [{ id: "call_ab12cd34", function: { index: 0, ...append("buy milk").function } }],
    };
    expect(rawOutputFromMessage(msg)).toBe(
      '<tool_call>\n{"name": "append", "arguments": {"content": "buy milk"}}\n</tool_call>',
    );
    expect(rawOutputFromMessage(msg)).toBe(ARTICLE_RAW);
  });

  it("puts the prose first and joins several calls with a newline", () => {
    const msg = {
      content: "Adding both.\n",
      tool_calls: [append("buy milk"), { function: { name: "get_conditions", arguments: { location: "Tokyo" } } }],
    };
    expect(rawOutputFromMessage(msg)).toBe(
      'Adding both.\n<tool_call>\n{"name": "append", "arguments": {"content": "buy milk"}}\n</tool_call>\n' +
        '<tool_call>\n{"name": "get_conditions", "arguments": {"location": "Tokyo"}}\n</tool_call>',
    );
  });

  it("is just the content when there are no calls", () => {
    expect(rawOutputFromMessage({ content: "Hello!" })).toBe("Hello!");
    expect(rawOutputFromMessage({})).toBe("");
  });
});

describe("pythonJson (json.dumps, ensure_ascii=False)", () => {
  it("spaces separators, keeps key order and non-ASCII, escapes like Python", () => {
    expect(pythonJson({ b: [1, 2.5, true, null], a: { x: "y" }, e: {}, l: [] })).toBe(
      '{"b": [1, 2.5, true, null], "a": {"x": "y"}, "e": {}, "l": []}',
    );
    expect(pythonJson('牛奶 🥛 <&> "q" \\ \n\t\u0001\u007f')).toBe('"牛奶 🥛 <&> \\"q\\" \\\\ \\n\\t\\u0001\u007f"');
    expect(pythonJson(1.5e-7)).toBe("1.5e-07");
    expect(pythonJson(-42)).toBe("-42");
  });

  it("refuses values JSON cannot hold", () => {
    expect(() => pythonJson(Number.NaN)).toThrow(/no JSON form/);
    expect(() => pythonJson(undefined)).toThrow(/not a JSON value/);
  });
});

describe("writeRawToolCalls", () => {
  it("writes nested arguments in the training format", () => {
    expect(writeRawToolCalls([{ function: { name: "add", arguments: { a: { list: ["x", 1] }, b: "é" } } }])).toBe(
      '<tool_call>\n{"name": "add", "arguments": {"a": {"list": ["x", 1]}, "b": "é"}}\n</tool_call>',
    );
    expect(writeRawToolCalls([])).toBe("");
  });
});

describe("rawOutputFromChunks", () => {
  const chunk = (message: ChatResponse["message"], done = false): ChatResponse => ({
    model: "qwen2.5:7b",
    created_at: "2026-11-29T20:00:00.000000Z",
    message,
    done,
  });

  it("concatenates streamed content and appends the calls of each chunk", () => {
    const chunks = [
      chunk({ role: "assistant", content: "Sure" }),
      chunk({ role: "assistant", content: ", adding it.\n" }),
      chunk({
        role: "assistant",
        content: "",
        tool_calls: [{ id: "call_1", function: { index: 0, ...append("buy milk").function } }],
      }),
      chunk({
        role: "assistant",
        content: "",
        tool_calls: [{ id: "call_2", function: { index: 1, ...append("eggs").function } }],
      }),
      chunk({ role: "assistant", content: "" }, true),
    ];
    expect(rawOutputFromChunks(chunks)).toBe(
      `Sure, adding it.\n${writeRawToolCalls([append("buy milk")])}\n${writeRawToolCalls([append("eggs")])}`,
    );
  });
});

describe("round trip through Ollama's parser", () => {
  const messages: RawOutputMessage[] = [
    { content: "", tool_calls: [append("buy milk")] },
    { content: "I'll add both. ", tool_calls: [append("buy milk"), append("eggs")] },
    {
      content: "",
      tool_calls: [{ function: { name: "get_temperature", arguments: { format: "celsius", city: "Zürich" } } }],
    },
    { content: "", tool_calls: [{ function: { name: "add", arguments: { a: "{", b: '"}"' } } }] },
    {
      content: "",
      tool_calls: [
        { function: { name: "say_hello", arguments: {} } },
        { function: { name: "say_hello_world", arguments: {} } },
      ],
    },
    {
      content: "",
      tool_calls: [
        {
          function: {
            name: "append",
            arguments: { content: "x", meta: { tags: ["a"], n: 3.25, ok: false, none: null } },
          },
        },
      ],
    },
    { content: "Just text, no tools." },
  ];

  it.each(messages)("parseToolCalls(rawOutputFromMessage(m)) gives m back: %j", (msg) => {
    const parsed = parseToolCalls(rawOutputFromMessage(msg), TOOLS);
    expect(parsed.content).toBe(msg.content);
    expect(parsed.calls).toEqual((msg.tool_calls ?? []).map((c, index) => ({ function: { index, ...c.function } })));
    // Key order survives too, so the raw text can be rebuilt from the parse.
    expect(rawOutputFromMessage({ content: parsed.content, tool_calls: parsed.calls })).toBe(rawOutputFromMessage(msg));
  });
});

describe("RAW_OUTPUT_NOTE", () => {
  it("tells the learner the text is reconstructed because Ollama discards it", () => {
    expect(RAW_OUTPUT_NOTE).toMatch(/reconstructed/i);
    expect(RAW_OUTPUT_NOTE).toMatch(/throws the text away/);
  });
});
