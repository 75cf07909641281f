/**
 * openai.FromChatRequest / FromCompleteRequest / FromResponsesRequest, checked against the vectors of Ollama's
 * own tests (middleware/openai_test.go TestChatMiddleware, openai/openai_test.go, openai/responses_test.go).
 */
import { describe, expect, it } from "vitest";
import { DialectError } from "@hopscope/shared/dialects/dialect-error";
import { fromOpenAiChat } from "@hopscope/shared/dialects/from-openai-chat";
import { fromOpenAiCompletions } from "@hopscope/shared/dialects/from-openai-completions";
import { fromOpenAiResponses } from "@hopscope/shared/dialects/from-openai-responses";

const weatherCall = {
  id: "id_abc",
  type: "function",
  function: { name: "get_current_weather", arguments: '{"location": "Paris, France", "format": "celsius"}' },
};
const weatherArgs = { location: "Paris, France", format: "celsius" };

function refused(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(DialectError);
    expect((err as DialectError).status).toBe(400);
    return (err as Error).message;
  }
  throw new Error("expected the conversion to refuse the body");
}

describe("/v1/chat/completions → /api/chat", () => {
  it("chat handler: temperature and top_p default to 1.0, stream false", () => {
    const { native } = fromOpenAiChat({ model: "test-model", messages: [{ role: "user", content: "Hello" }] });
    expect(native).toEqual({
      model: "test-model",
      messages: [{ role: "user", content: "Hello" }],
      stream: false,
      options: { temperature: 1.0, top_p: 1.0 },
    });
  });

  it("chat handler with options: max_tokens → num_predict, stop list, json_object → format json", () => {
    const { native } = fromOpenAiChat({
      model: "test-model",
      messages: [{ role: "user", content: "Hello" }],
      stream: true,
      max_tokens: 999,
      seed: 123,
      stop: ["\n", "stop"],
      temperature: 3.0,
      frequency_penalty: 4.0,
      presence_penalty: 5.0,
      top_p: 6.0,
      response_format: { type: "json_object" },
    });
    expect(native.options).toEqual({
      num_predict: 999,
      seed: 123,
      stop: ["\n", "stop"],
      temperature: 3.0,
      frequency_penalty: 4.0,
      presence_penalty: 5.0,
      top_p: 6.0,
    });
    expect(native.format).toBe("json");
    expect(native.stream).toBe(true);
  });

  it("a string stop is a one-element list", () => {
    expect(
      fromOpenAiChat({ model: "m", messages: [{ role: "user", content: "x" }], stop: "END" }).native.options,
    ).toMatchObject({ stop: ["END"] });
  });

  it("content parts become one message each (image as base64 data)", () => {
    const { native, paths } = fromOpenAiChat({
      model: "m",
      messages: [
        {
          role: "user",
          content: [
            { type: "text", text: "Hello" },
            { type: "image_url", image_url: { url: "data:image/png;base64,iVBORw0KGgo=" } },
          ],
        },
      ],
    });
    expect(native.messages).toEqual([
      { role: "user", content: "Hello" },
      { role: "user", content: "", images: ["iVBORw0KGgo="] },
    ]);
    expect(paths.map("/messages/0/content")).toBe("/messages/0/content/0/text");
  });

  it("tool calls: arguments decoded from the JSON string, content optional", () => {
    const { native } = fromOpenAiChat({
      model: "m",
      messages: [
        { role: "user", content: "What's the weather like in Paris Today?" },
        { role: "assistant", tool_calls: [weatherCall] },
      ],
    });
    expect((native.messages as unknown[])[1]).toEqual({
      role: "assistant",
      content: "",
      tool_calls: [{ id: "id_abc", function: { index: 0, name: "get_current_weather", arguments: weatherArgs } }],
    });
  });

  it("tool response with call ID: the tool name comes from the matching call", () => {
    const { native, paths } = fromOpenAiChat({
      model: "m",
      messages: [
        { role: "user", content: "q" },
        { role: "assistant", tool_calls: [weatherCall] },
        { role: "tool", tool_call_id: "id_abc", content: "The weather in Paris is 20 degrees Celsius" },
      ],
    });
    expect((native.messages as unknown[])[2]).toEqual({
      role: "tool",
      content: "The weather in Paris is 20 degrees Celsius",
      tool_name: "get_current_weather",
      tool_call_id: "id_abc",
    });
    expect(paths.map("/messages/1/tool_calls/0/function/arguments")).toBe(
      "/messages/1/tool_calls/0/function/arguments",
    );
  });

  it("tool response with name", () => {
    const { native } = fromOpenAiChat({
      model: "m",
      messages: [{ role: "tool", name: "get_current_weather", content: "20" }],
    });
    expect((native.messages as unknown[])[0]).toEqual({
      role: "tool",
      content: "20",
      tool_name: "get_current_weather",
    });
  });

  it("reasoning effort maps to think (minimal → low, xhigh → max, none → false)", () => {
    const think = (e: string) =>
      fromOpenAiChat({ model: "m", messages: [{ role: "user", content: "x" }], reasoning_effort: e }).native.think;
    expect([think("minimal"), think("high"), think("xhigh"), think("none")]).toEqual(["low", "high", "max", false]);
    expect(refused(() => think("extreme"))).toMatch(/^invalid reasoning value: "extreme"/);
  });

  it("refuses what Ollama refuses, with its message", () => {
    expect(refused(() => fromOpenAiChat({ model: "m", messages: [{ role: "user", content: 2 }] }))).toBe(
      "invalid message content type: float64",
    );
    expect(refused(() => fromOpenAiChat({ model: "m", messages: [] }))).toBe("[] is too short - 'messages'");
    expect(refused(() => fromOpenAiChat({ model: "m", messages: "hi" }))).toBe(
      "json: cannot unmarshal string into Go struct field ChatCompletionRequest.messages of type []openai.Message",
    );
    expect(
      refused(() =>
        fromOpenAiChat({ model: "m", messages: [{ role: "user", content: [{ type: "video", url: "x" }] }] }),
      ),
    ).toBe("invalid message format");
    expect(
      refused(() =>
        fromOpenAiChat({
          model: "m",
          messages: [{ role: "assistant", tool_calls: [{ id: "a", function: { name: "f", arguments: "{not json" } }] }],
        }),
      ),
    ).toBe("invalid tool call arguments");
    expect(
      refused(() =>
        fromOpenAiChat({
          model: "m",
          messages: [{ role: "user", content: [{ type: "image_url", image_url: { url: "https://x/y.png" } }] }],
        }),
      ),
    ).toMatch(/image URLs are not currently supported/);
  });
});

describe("/v1/completions → /api/generate", () => {
  it("completions handler: stop list, suffix, penalties always sent", () => {
    const { native, endpoint } = fromOpenAiCompletions({
      model: "test-model",
      prompt: "Hello",
      temperature: 0.8,
      stop: ["\n", "stop"],
      suffix: "suffix",
    });
    expect(endpoint).toBe("/api/generate");
    expect(native).toMatchObject({
      model: "test-model",
      prompt: "Hello",
      suffix: "suffix",
      stream: false,
      options: { frequency_penalty: 0, presence_penalty: 0, temperature: 0.8, top_p: 1.0, stop: ["\n", "stop"] },
    });
  });

  it("a stop that is not a string is refused", () => {
    expect(refused(() => fromOpenAiCompletions({ model: "m", prompt: "x", stop: ["a", 1] }))).toBe(
      "invalid type for 'stop' field: float64",
    );
  });
});

describe("/v1/responses → /api/chat", () => {
  it("instructions become the system message; a string input is the user message", () => {
    const { native, paths } = fromOpenAiResponses({
      model: "m",
      instructions: "Be brief.",
      input: "Hello",
      max_output_tokens: 50,
    });
    expect(native.messages).toEqual([
      { role: "system", content: "Be brief." },
      { role: "user", content: "Hello" },
    ]);
    expect(native.options).toEqual({ temperature: 1.0, num_predict: 50 });
    expect(paths.map("/messages/0/content")).toBe("/instructions");
  });

  it("function_call joins the assistant turn; function_call_output becomes a tool message with its call_id", () => {
    const { native, paths } = fromOpenAiResponses({
      model: "m",
      input: [
        { type: "message", role: "user", content: [{ type: "input_text", text: "Add buy milk" }] },
        { type: "function_call", call_id: "call_1", name: "add_note", arguments: '{"text":"buy milk"}' },
        { type: "function_call_output", call_id: "call_1", output: "Added." },
      ],
      tools: [
        {
          type: "function",
          name: "add_note",
          description: "Add a note",
          parameters: { type: "object", properties: { text: { type: "string" } } },
        },
      ],
    });
    expect(native.messages).toEqual([
      { role: "user", content: "Add buy milk" },
      {
        role: "assistant",
        content: "",
        tool_calls: [{ id: "call_1", function: { index: 0, name: "add_note", arguments: { text: "buy milk" } } }],
      },
      { role: "tool", content: "Added.", tool_call_id: "call_1" },
    ]);
    expect(native.tools).toEqual([
      {
        type: "function",
        function: {
          name: "add_note",
          description: "Add a note",
          parameters: { type: "object", properties: { text: { type: "string" } } },
        },
      },
    ]);
    expect(paths.map("/messages/0/content")).toBe("/input/0/content/0/text");
    expect(paths.map("/messages/1/tool_calls/0/function/arguments")).toBe("/input/1/arguments");
    expect(paths.map("/messages/2/content")).toBe("/input/2/output");
    expect(paths.map("/tools/0/function/parameters")).toBe("/tools/0/parameters");
  });

  it("an assistant message replayed between a call and its output merges into the call's message", () => {
    const { native } = fromOpenAiResponses({
      model: "m",
      input: [
        { type: "message", role: "assistant", content: [{ type: "output_text", text: "Let me check." }] },
        { type: "function_call", call_id: "c", name: "f", arguments: "{}" },
        { type: "message", role: "assistant", content: [{ type: "output_text", text: "Still checking." }] },
        { type: "function_call_output", call_id: "c", output: "ok" },
      ],
    });
    expect(native.messages).toEqual([
      {
        role: "assistant",
        content: "Let me check.\nStill checking.",
        tool_calls: [{ id: "c", function: { index: 0, name: "f", arguments: {} } }],
      },
      { role: "tool", content: "ok", tool_call_id: "c" },
    ]);
  });

  it("refuses bad items with Ollama's message", () => {
    expect(
      refused(() =>
        fromOpenAiResponses({
          model: "m",
          input: [{ type: "function_call", call_id: "c", name: "f", arguments: "{bad" }],
        }),
      ),
    ).toBe("failed to parse function call arguments: invalid character 'b' looking for beginning of value");
    expect(refused(() => fromOpenAiResponses({ model: "m", input: [{ type: "telepathy" }] }))).toBe(
      'input[0]: unknown input item type: "telepathy"',
    );
    expect(refused(() => fromOpenAiResponses({ model: "m", input: [{ content: "x" }] }))).toBe(
      "input[0]: input item missing required 'type' field",
    );
  });
});

describe("a tool message's name and call id, by Ollama version", () => {
  const body = {
    model: "m",
    messages: [
      { role: "assistant", tool_calls: [weatherCall] },
      { role: "tool", tool_call_id: "id_abc", content: "20" },
    ],
  };
  const tool = (v?: string) => (fromOpenAiChat(body, v).native.messages as unknown[])[1];
  it("none before 0.11.4; the name from 0.11.4; the call id too from 0.12.11 (ollama/ollama#12988)", () => {
    expect(tool("0.11.3")).toEqual({ role: "tool", content: "20" });
    expect(tool("0.12.0")).toEqual({ role: "tool", content: "20", tool_name: "get_current_weather" });
    expect(tool("0.12.11")).toEqual({
      role: "tool",
      content: "20",
      tool_name: "get_current_weather",
      tool_call_id: "id_abc",
    });
  });
});
