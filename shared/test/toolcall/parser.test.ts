import { describe, expect, it } from "vitest";
import {
  ToolCallParser,
  findTag,
  findTool,
  parseToolCalls,
  type ParsedToolCall,
} from "@hopscope/shared/toolcall/parser";
import { ARTICLE_RAW, TOOLS } from "./tools";

function call(index: number, name: string, args: Record<string, unknown>): ParsedToolCall {
  return { function: { index, name, arguments: args } };
}

/** Feed chunks one by one and aggregate, as a client reading the NDJSON stream would. */
function stream(chunks: string[], tag?: string, ollamaVersion?: string): { calls: ParsedToolCall[]; content: string } {
  const parser = new ToolCallParser(TOOLS, tag, { ollamaVersion });
  const calls: ParsedToolCall[] = [];
  let content = "";
  for (const chunk of chunks) {
    const out = parser.add(chunk);
    calls.push(...out.calls);
    content += out.content;
  }
  return { calls, content: content + parser.content() };
}

describe("parseToolCalls (qwen2.5, tag <tool_call>)", () => {
  it("parses the article's raw output into one append call with no content", () => {
    expect(parseToolCalls(ARTICLE_RAW, TOOLS)).toEqual({
      calls: [call(0, "append", { content: "buy milk" })],
      content: "",
    });
  });

  it("returns plain text as content", () => {
    expect(parseToolCalls("Hello, how can I help you today?", TOOLS)).toEqual({
      calls: [],
      content: "Hello, how can I help you today?",
    });
    expect(parseToolCalls("", TOOLS)).toEqual({ calls: [], content: "" });
  });

  it("does not call a tool just because prose names it", () => {
    const text = "Let me say hello to the user. I'll use the say_hello tool. ";
    expect(parseToolCalls(text, TOOLS)).toEqual({ calls: [], content: text });
  });

  it("keeps the prose before the tag as content", () => {
    const text = `Let me check the weather. <tool_call>{"name": "get_temperature", "arguments": {"city": "New York"}}</tool_call>`;
    expect(parseToolCalls(text, TOOLS)).toEqual({
      calls: [call(0, "get_temperature", { city: "New York" })],
      content: "Let me check the weather. ",
    });
  });

  it("drops the text the model writes after its calls", () => {
    const text = `${ARTICLE_RAW}\nDone! I added "buy milk" to your notes.`;
    expect(parseToolCalls(text, TOOLS)).toEqual({ calls: [call(0, "append", { content: "buy milk" })], content: "" });
  });

  it("parses two calls with indexes 0 and 1", () => {
    const text =
      "Okay, let's call both tools! " +
      '<tool_call>\n{"name": "get_temperature", "arguments": {"city": "London", "format": "fahrenheit"}}\n</tool_call>\n' +
      '<tool_call>\n{"name": "get_conditions", "arguments": {"location": "Tokyo"}}\n</tool_call>';
    expect(parseToolCalls(text, TOOLS)).toEqual({
      calls: [
        call(0, "get_temperature", { city: "London", format: "fahrenheit" }),
        call(1, "get_conditions", { location: "Tokyo" }),
      ],
      content: "Okay, let's call both tools! ",
    });
  });

  it("parses empty arguments, then arguments, in a row", () => {
    const text = `<tool_call>{"name": "say_hello", "arguments": {}}</tool_call><tool_call>{"name": "get_conditions", "arguments": {"location": "Tokyo"}}`;
    expect(parseToolCalls(text, TOOLS).calls).toEqual([
      call(0, "say_hello", {}),
      call(1, "get_conditions", { location: "Tokyo" }),
    ]);
  });

  it("skips braces and escaped quotes inside strings", () => {
    const text = `<tool_call>\n{"name": "append", "arguments": {"content": "if (x) { return \\"}\\"; } and {a}"}}\n</tool_call>`;
    expect(parseToolCalls(text, TOOLS).calls).toEqual([
      call(0, "append", { content: 'if (x) { return "}"; } and {a}' }),
    ]);
  });

  it('accepts "parameters" instead of "arguments"', () => {
    const text = `<tool_call>\n{"name": "get_conditions", "parameters": {"location": "Rome"}}\n</tool_call>`;
    expect(parseToolCalls(text, TOOLS).calls).toEqual([call(0, "get_conditions", { location: "Rome" })]);
  });

  it("accepts arguments written as a JSON string", () => {
    const text = `<tool_call>\n{"name": "get_temperature", "arguments": "{\\"city\\": \\"Oslo\\"}"}\n</tool_call>`;
    expect(parseToolCalls(text, TOOLS).calls).toEqual([call(0, "get_temperature", { city: "Oslo" })]);
  });

  it("finds the call inside a nested wrapper object", () => {
    const text = `<tool_call>\n{"function": {"name": "get_address", "arguments": {"location": "Paris"}}}\n</tool_call>`;
    expect(parseToolCalls(text, TOOLS).calls).toEqual([call(0, "get_address", { location: "Paris" })]);
  });

  it("takes the value of a key equal to the tool name", () => {
    const text = `<tool_call>{"get_temperature": {"city": "Oslo"}}</tool_call>`;
    expect(parseToolCalls(text, TOOLS).calls).toEqual([call(0, "get_temperature", { city: "Oslo" })]);
  });

  it("takes a bare object after the tool name as the arguments", () => {
    expect(parseToolCalls(`<tool_call>get_conditions {"location": "Rome"}`, TOOLS).calls).toEqual([
      call(0, "get_conditions", { location: "Rome" }),
    ]);
  });

  it("parses arguments written before the name", () => {
    const text = `<tool_call>{"arguments": {"a": "5", "b": "10"}, "name": "add"}</tool_call>`;
    expect(parseToolCalls(text, TOOLS).calls).toEqual([call(0, "add", { a: "5", b: "10" })]);
  });

  it("keeps the argument keys in the order the model wrote them", () => {
    const text = `<tool_call>{"name": "get_temperature", "arguments": {"format": "celsius", "city": "Oslo"}}</tool_call>`;
    expect(Object.keys(parseToolCalls(text, TOOLS).calls[0]!.function.arguments)).toEqual(["format", "city"]);
  });

  it("prefers the earliest tool name, and the longer one at the same place", () => {
    expect(parseToolCalls(`<tool_call>{"name": "say_hello_world", "arguments": {}}</tool_call>`, TOOLS).calls).toEqual([
      call(0, "say_hello_world", {}),
    ]);
    expect(
      parseToolCalls(
        `<tool_call>{"name": "say_hello", "arguments": {}}</tool_call><tool_call>{"name": "say_hello_world", "arguments": {}}`,
        TOOLS,
      ).calls,
    ).toEqual([call(0, "say_hello", {}), call(1, "say_hello_world", {})]);
  });
});

describe("malformed output: no call and no content, as Ollama answers", () => {
  it.each([
    ["an undeclared tool", `<tool_call>\n{"name": "delete_everything", "arguments": {"path": "/"}}\n</tool_call>`],
    ["invalid JSON", `<tool_call>\n{"name": "append", "arguments": {content: buy milk}}\n</tool_call>`],
    ["an unclosed object", `<tool_call>\n{"name": "append", "arguments": {"content": "buy milk"}\n</tool_call>`],
    ["no arguments", `<tool_call>\n{"name": "say_hello"}\n</tool_call>`],
    ["arguments that are an array", `<tool_call>\n{"name": "append", "arguments": ["buy milk"]}\n</tool_call>`],
    ["arguments that are the string null", `<tool_call>\n{"name": "append", "arguments": "null"}\n</tool_call>`],
    ["a number beyond float64", `<tool_call>\n{"name": "add", "arguments": {"a": 1e400}}\n</tool_call>`],
    ["a tag and nothing else", "<tool_call>"],
  ])("%s", (_label, text) => {
    expect(parseToolCalls(text, TOOLS)).toEqual({ calls: [], content: "" });
  });

  it("keeps only the prose when the call after it is malformed", () => {
    expect(parseToolCalls(`Sure. <tool_call>{"name": "nope", "arguments": {}}</tool_call>`, TOOLS)).toEqual({
      calls: [],
      content: "Sure. ",
    });
  });

  it("loses every later call once a call without arguments blocks the buffer", () => {
    const text = `<tool_call>{"name": "add"}</tool_call><tool_call>{"name": "add", "arguments": {"a": "1"}}</tool_call>`;
    expect(parseToolCalls(text, TOOLS).calls).toEqual([]);
  });

  it("gives a declared call the arguments of an undeclared call before it (first object wins)", () => {
    const text =
      '<tool_call>{"name": "unknown_tool", "arguments": {"q": "x"}}</tool_call>\n' +
      '<tool_call>{"name": "get_conditions", "arguments": {"location": "Tokyo"}}</tool_call>';
    expect(parseToolCalls(text, TOOLS).calls).toEqual([call(0, "get_conditions", { q: "x" })]);
  });

  it("loses a partial tag held back when the output ends", () => {
    expect(parseToolCalls("Let me look that up <tool_ca", TOOLS)).toEqual({
      calls: [],
      content: "Let me look that up ",
    });
  });
});

describe("ToolCallParser streaming", () => {
  it("holds back a partial tag until it is decided", () => {
    const parser = new ToolCallParser(TOOLS);
    expect(parser.add("Checking <tool")).toEqual({ calls: [], content: "Checking " });
    expect(parser.pending).toBe("<tool");
    expect(parser.add("box> now")).toEqual({ calls: [], content: "<toolbox> now" });
    expect(parser.add(" <")).toEqual({ calls: [], content: " " });
    expect(parser.add('tool_call>\n{"name": "append", "arguments": {"content": "x"}}')).toEqual({
      calls: [call(0, "append", { content: "x" })],
      content: "",
    });
  });

  it("waits while the buffer ends with a prefix of a tool name", () => {
    const parser = new ToolCallParser(TOOLS);
    expect(parser.add('<tool_call>\n{"name": "say_hello').calls).toEqual([]);
    expect(parser.add('_world", "arguments": {}}').calls).toEqual([call(0, "say_hello_world", {})]);
    expect(parser.add("\n</tool_call>\n<tool_call>\n").calls).toEqual([]);
    expect(parser.add('{"name": "say_hello", "arguments": {}}\n</tool_call>').calls).toEqual([
      call(1, "say_hello", {}),
    ]);
  });

  it("returns content only before the tag and nothing afterwards", () => {
    const parser = new ToolCallParser(TOOLS);
    expect(parser.add("Sure").content).toBe("Sure");
    expect(parser.add("! <tool_call>").content).toBe("! ");
    expect(parser.add(' {"name": "append", "arguments": {"content": "a"}}').calls).toHaveLength(1);
    expect(parser.add("\n</tool_call>\nAll done.")).toEqual({ calls: [], content: "" });
    expect(parser.content()).toBe("");
  });

  const outputs = [
    ARTICLE_RAW,
    `I'll add it. ${ARTICLE_RAW}\nDone.`,
    '<tool_call>\n{"name": "say_hello_world", "arguments": {}}\n</tool_call>\n<tool_call>\n{"name": "say_hello", "arguments": {}}\n</tool_call>',
    '<tool_call>\n{"name": "append", "arguments": {"content": "a } b { \\"c\\" ✓ 牛奶 🥛"}}\n</tool_call>',
    '<tool_call>\n{"name": "get_temperature", "arguments": "{\\"city\\": \\"Oslo\\"}"}\n</tool_call>',
    "No tools needed: the answer is 42 <tool",
  ];

  it.each(outputs)("gives the whole-output result for every split point: %j", (text) => {
    const whole = parseToolCalls(text, TOOLS);
    for (let i = 0; i <= text.length; i++) {
      expect(stream([text.slice(0, i), text.slice(i)]), `split at ${i}`).toEqual(whole);
    }
    expect(stream([...text])).toEqual(whole);
  });
});

describe("bare JSON tags ({ and [), as templates without a tag word get", () => {
  it("parses a bare JSON call chunk by chunk", () => {
    const chunks = ["{", '"name": "get_temperature",', '"arguments": {', '"city": "Tokyo"', "}", "}"];
    expect(stream(chunks, "{")).toEqual({ calls: [call(0, "get_temperature", { city: "Tokyo" })], content: "" });
  });

  it("returns a JSON object that is not a call as content", () => {
    const chunks = ["{", '"name": "search", ', '"arguments": {', '"query": "capital of Canada?"', "}", "}"];
    expect(stream(chunks, "{")).toEqual({
      calls: [],
      content: '{"name": "search", "arguments": {"query": "capital of Canada?"}}',
    });
  });

  it("returns text that does not start with JSON as content, and repeats its JSON part at the end", () => {
    const parser = new ToolCallParser(TOOLS, "{");
    expect(parser.add('for { fmt.Println("hello") }')).toEqual({ calls: [], content: 'for { fmt.Println("hello") }' });
    expect(parser.add("")).toEqual({ calls: [], content: "" });
    // Go's Add returns without clearing its buffer here, and the final chunk carries Content(): a real
    // Ollama sends the text from the "{" on a second time.
    expect(parser.content()).toBe('{ fmt.Println("hello") }');
  });

  it("parses a list of calls", () => {
    const chunks = [
      "[",
      '{"name": "get_temperature", "arguments": {"city": "London"}},',
      '{"name": "get_conditions", "arguments": {"location": "Tokyo"}}]',
    ];
    expect(stream(chunks, "[").calls).toEqual([
      call(0, "get_temperature", { city: "London" }),
      call(1, "get_conditions", { location: "Tokyo" }),
    ]);
  });

  it("ends at a brace inside a string up to 0.30.11, not from 0.30.12", () => {
    const chunks = ['{"note": "a}', 'b", "name": "get_conditions", "arguments": {}}'];
    expect(stream(chunks, "{", "0.13.5")).toEqual({ calls: [], content: chunks.join("") });
    expect(stream(chunks, "{", "0.30.12")).toEqual({ calls: [call(0, "get_conditions", {})], content: "" });
  });
});

describe("findTag and findTool", () => {
  it.each([
    ["hello world", -1, false],
    ["<tool_call>", 0, true],
    ['    <tool_call>\n {"name": "bob"}', 4, true],
    ["text <tool_call>", 5, true],
    ["<tool>", -1, false],
    ["", -1, false],
    ["test<", 4, false],
    ["hello <tool_", 6, false],
  ])("findTag(%j)", (buffer, index, found) => {
    expect(findTag(buffer, "<tool_call>")).toEqual({ index, found });
  });

  it("returns the offset past the earliest, longest name", () => {
    expect(findTool(TOOLS, '{"name": "get_address"}')).toEqual({ tool: TOOLS[4], end: 21 });
    expect(findTool(TOOLS, "x say_hello_world y")).toEqual({ tool: TOOLS[3], end: 17 });
    expect(findTool(TOOLS, "nothing declared here.")).toBeNull();
    expect(findTool(TOOLS, "a complete add but ending in get_t")).toBeNull();
  });
});
