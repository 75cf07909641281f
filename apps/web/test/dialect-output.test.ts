import { describe, expect, it } from "vitest";
import { parsedShape } from "../src/models/dialect-output";

const calls = [{ id: "call_1", name: "append", arguments: { content: "<b>milk</b>" } }];

describe("parsedShape: the model's tool calls as each dialect hands them back", () => {
  it("OpenAI: arguments as the JSON string Go writes (HTML-safe escapes)", () => {
    expect(parsedShape("/v1/chat/completions", calls)).toMatchObject({
      field: "choices[0].message.tool_calls",
      value: [
        {
          id: "call_1",
          index: 0,
          type: "function",
          function: { name: "append", arguments: '{"content":"\\u003cb\\u003emilk\\u003c/b\\u003e"}' },
        },
      ],
    });
  });
  it("Anthropic: tool_use blocks with the input object; Ollama: an arguments object; Responses: function_call items", () => {
    expect(parsedShape("/v1/messages", calls).value).toEqual([
      { type: "tool_use", id: "call_1", name: "append", input: { content: "<b>milk</b>" } },
    ]);
    expect(parsedShape("/api/chat?x=1", calls).value).toEqual([
      { id: "call_1", function: { index: 0, name: "append", arguments: { content: "<b>milk</b>" } } },
    ]);
    // An Ollama older than call ids sends neither id nor index.
    expect(parsedShape("/api/chat", [{ name: "append", arguments: {} }]).value).toEqual([
      { function: { name: "append", arguments: {} } },
    ]);
    expect(parsedShape("/v1/responses", calls).field).toBe("output[] function_call items");
  });
});
