/** anthropic.FromMessagesRequest, checked against the vectors of Ollama's anthropic/anthropic_test.go. */
import { describe, expect, it } from "vitest";
import { DialectError } from "@hopscope/shared/dialects/dialect-error";
import { fromAnthropic } from "@hopscope/shared/dialects/from-anthropic";

const base = { model: "test-model", max_tokens: 1024 };

function refused(body: unknown): string {
  try {
    fromAnthropic(body);
  } catch (err) {
    expect(err).toBeInstanceOf(DialectError);
    return (err as Error).message;
  }
  throw new Error("expected a refusal");
}

describe("/v1/messages → /api/chat", () => {
  it("basic: max_tokens → num_predict, nothing else defaulted", () => {
    const { native } = fromAnthropic({ ...base, messages: [{ role: "user", content: "Hello" }] });
    expect(native).toEqual({
      model: "test-model",
      messages: [{ role: "user", content: "Hello" }],
      stream: false,
      options: { num_predict: 1024 },
    });
  });

  it("system text blocks are joined with nothing between them", () => {
    const { native, paths } = fromAnthropic({
      ...base,
      system: [
        { type: "text", text: "You are helpful." },
        { type: "text", text: " Be concise." },
      ],
      messages: [{ role: "user", content: "Hello" }],
    });
    expect((native.messages as unknown[])[0]).toEqual({ role: "system", content: "You are helpful. Be concise." });
    expect(paths.map("/messages/0/content")).toBe("/system");
  });

  it("options: temperature, top_p, top_k, stop_sequences", () => {
    const { native } = fromAnthropic({
      ...base,
      messages: [{ role: "user", content: "x" }],
      temperature: 0.7,
      top_p: 0.9,
      top_k: 40,
      stop_sequences: ["\n", "END"],
    });
    expect(native.options).toEqual({ num_predict: 1024, temperature: 0.7, top_p: 0.9, top_k: 40, stop: ["\n", "END"] });
  });

  it("tool_use blocks become tool calls with input as the arguments", () => {
    const { native, paths } = fromAnthropic({
      ...base,
      messages: [
        {
          role: "assistant",
          content: [
            { type: "text", text: "Checking." },
            { type: "tool_use", id: "call_123", name: "get_weather", input: { location: "Paris" } },
          ],
        },
      ],
    });
    expect(native.messages).toEqual([
      {
        role: "assistant",
        content: "Checking.",
        tool_calls: [{ id: "call_123", function: { index: 0, name: "get_weather", arguments: { location: "Paris" } } }],
      },
    ]);
    expect(paths.map("/messages/0/tool_calls/0/function/arguments")).toBe("/messages/0/content/1/input");
    expect(paths.map("/messages/0/content")).toBe("/messages/0/content/0/text");
  });

  it("a tool_result becomes a tool message with tool_call_id", () => {
    const { native } = fromAnthropic({
      ...base,
      messages: [
        {
          role: "user",
          content: [{ type: "tool_result", tool_use_id: "call_123", content: "The weather in Paris is sunny, 22°C" }],
        },
      ],
    });
    expect(native.messages).toEqual([
      { role: "tool", content: "The weather in Paris is sunny, 22°C", tool_call_id: "call_123" },
    ]);
  });

  it("in a user turn, tool results come before the turn's text", () => {
    const { native, paths } = fromAnthropic({
      ...base,
      messages: [
        {
          role: "assistant",
          content: [{ type: "tool_use", id: "call_read", name: "Read", input: { file_path: "/a.png" } }],
        },
        {
          role: "user",
          content: [
            { type: "tool_result", tool_use_id: "call_read", content: "Read image (311.5KB)" },
            { type: "text", text: "Please describe it." },
          ],
        },
      ],
    });
    const m = native.messages as Array<Record<string, unknown>>;
    expect(m.map((x) => x.role)).toEqual(["assistant", "tool", "user"]);
    expect(m[1]!.tool_call_id).toBe("call_read");
    expect(m[2]!.content).toBe("Please describe it.");
    expect(paths.map("/messages/1/content")).toBe("/messages/1/content/0/content");
    expect(paths.map("/messages/2/content")).toBe("/messages/1/content/1/text");
  });

  it("tools: input_schema becomes parameters", () => {
    const { native, paths } = fromAnthropic({
      ...base,
      messages: [{ role: "user", content: "x" }],
      tools: [
        {
          name: "get_weather",
          description: "Get weather",
          input_schema: { type: "object", properties: { location: { type: "string" } }, required: ["location"] },
        },
      ],
    });
    expect(native.tools).toEqual([
      {
        type: "function",
        function: {
          name: "get_weather",
          description: "Get weather",
          parameters: { type: "object", properties: { location: { type: "string" } }, required: ["location"] },
        },
      },
    ]);
    expect(paths.map("/tools/0/function/parameters/properties")).toBe("/tools/0/input_schema/properties");
  });

  it("thinking enabled → think true; output_config effort xhigh → high", () => {
    expect(
      fromAnthropic({
        ...base,
        messages: [{ role: "user", content: "x" }],
        thinking: { type: "enabled", budget_tokens: 1000 },
      }).native.think,
    ).toBe(true);
    expect(
      fromAnthropic({ ...base, messages: [{ role: "user", content: "x" }], output_config: { effort: "xhigh" } }).native
        .think,
    ).toBe("high");
    expect(
      fromAnthropic({
        ...base,
        messages: [{ role: "user", content: "x" }],
        thinking: { type: "disabled" },
        output_config: { effort: "high" },
      }).native.think,
    ).toBe(false);
  });

  it("refuses what the middleware refuses", () => {
    expect(refused({ max_tokens: 10, messages: [{ role: "user", content: "x" }] })).toBe("model is required");
    expect(refused({ model: "m", messages: [{ role: "user", content: "x" }] })).toBe(
      "max_tokens is required and must be positive",
    );
    expect(refused({ ...base, messages: [] })).toBe("messages is required");
    expect(refused({ ...base, messages: "hi" })).toBe(
      "json: cannot unmarshal string into Go struct field MessagesRequest.messages of type []anthropic.MessageParam",
    );
    expect(
      refused({ ...base, messages: [{ role: "assistant", content: [{ type: "tool_use", name: "f", input: {} }] }] }),
    ).toBe("tool_use block missing required 'id' field");
    expect(
      refused({ ...base, messages: [{ role: "assistant", content: [{ type: "tool_use", id: "x", input: {} }] }] }),
    ).toBe("tool_use block missing required 'name' field");
  });

  it("unknown block types are skipped, as Ollama counts and ignores them", () => {
    expect(
      fromAnthropic({
        ...base,
        messages: [{ role: "user", content: [{ type: "hologram" }, { type: "text", text: "hi" }] }],
      }).native.messages,
    ).toEqual([{ role: "user", content: "hi" }]);
  });
});

describe("where a user turn's tool results go, by Ollama version", () => {
  const body = {
    ...base,
    messages: [
      { role: "assistant", content: [{ type: "tool_use", id: "c", name: "Read", input: {} }] },
      {
        role: "user",
        content: [
          { type: "tool_result", tool_use_id: "c", content: "done" },
          { type: "text", text: "Now describe it." },
        ],
      },
    ],
  };
  const roles = (v?: string) => (fromAnthropic(body, v).native.messages as Array<{ role: string }>).map((m) => m.role);
  it("0.14.0 to 0.23.3: after the turn's text; from 0.23.4 (ollama/ollama#16047) and by default: before it", () => {
    expect(roles("0.14.0")).toEqual(["assistant", "user", "tool"]);
    expect(roles("0.23.3")).toEqual(["assistant", "user", "tool"]);
    expect(roles("0.23.4")).toEqual(["assistant", "tool", "user"]);
    expect(roles()).toEqual(["assistant", "tool", "user"]);
  });
});
