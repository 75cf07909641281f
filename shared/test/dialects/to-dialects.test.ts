/**
 * Native responses → each dialect (openai.ToChatCompletion / ChatWriter, ToResponse / ResponsesStreamConverter,
 * anthropic.ToMessagesResponse / StreamConverter), with the vectors of Ollama's tests where they exist.
 */
import { describe, expect, it } from "vitest";
import { dialectWriter } from "@hopscope/shared/dialects/convert";
import { readResponse } from "@hopscope/shared/dialects/read-response";
import { parseSse } from "@hopscope/shared/framing/sse";

const ids = { random: () => 0.5, hex: (n: number) => "ab".repeat(n), now: () => Date.UTC(2026, 11, 1) };
const at = "2026-12-01T09:00:00.123456789Z";
const call = { id: "call_abcdefgh", function: { index: 0, name: "add_note", arguments: { text: "buy <milk>" } } };
const toolTurn = {
  model: "qwen2.5:7b",
  created_at: at,
  message: { role: "assistant", content: "", tool_calls: [call] },
  done: true,
  done_reason: "stop",
  prompt_eval_count: 10,
  eval_count: 5,
};
const textChunks = [
  { model: "qwen2.5:7b", created_at: at, message: { role: "assistant", content: "Hel" }, done: false },
  { model: "qwen2.5:7b", created_at: at, message: { role: "assistant", content: "lo" }, done: false },
  {
    model: "qwen2.5:7b",
    created_at: at,
    message: { role: "assistant", content: "" },
    done: true,
    done_reason: "stop",
    prompt_eval_count: 10,
    eval_count: 2,
  },
];

const events = (text: string) =>
  parseSse(text).map((e) => ({ event: e.event, data: e.data === "[DONE]" ? "[DONE]" : JSON.parse(e.data) }));

describe("OpenAI chat completions", () => {
  it("a tool turn: arguments as a JSON string, finish_reason tool_calls, usage", () => {
    const body = dialectWriter("openai-chat", {}, ids).whole(toolTurn);
    expect(body).toEqual({
      id: "chatcmpl-499",
      object: "chat.completion",
      created: 1796115600,
      model: "qwen2.5:7b",
      system_fingerprint: "fp_ollama",
      choices: [
        {
          index: 0,
          message: {
            role: "assistant",
            content: "",
            tool_calls: [
              {
                id: "call_abcdefgh",
                index: 0,
                type: "function",
                function: { name: "add_note", arguments: '{"text":"buy \\u003cmilk\\u003e"}' },
              },
            ],
          },
          finish_reason: "tool_calls",
        },
      ],
      usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
    });
  });

  it("a stream: role first only, no chunk for the empty trailer, finish chunk, usage chunk, [DONE]", () => {
    const w = dialectWriter("openai-chat", { stream_options: { include_usage: true } }, ids);
    const e = events(textChunks.map((c) => w.chunk(c)).join(""));
    expect(e.map((x) => (x.data === "[DONE]" ? "[DONE]" : (x.data.choices[0]?.delta ?? "usage")))).toEqual([
      { role: "assistant", content: "Hel" },
      { content: "lo" },
      {},
      "usage",
      "[DONE]",
    ]);
    expect(e[2]!.data.choices[0].finish_reason).toBe("stop");
    expect(e[3]!.data.usage).toEqual({ prompt_tokens: 10, completion_tokens: 2, total_tokens: 12 });
  });

  it("streamed tool calls finish as tool_calls and read back to the same call", () => {
    const w = dialectWriter("openai-chat", {}, ids);
    const text =
      w.chunk({ ...toolTurn, done: false }) + w.chunk({ ...textChunks[2]!, prompt_eval_count: 10, eval_count: 5 });
    expect(events(text).at(-2)!.data.choices[0].finish_reason).toBe("tool_calls");
    const read = readResponse("openai-chat", text);
    expect(read.toolCalls).toEqual([
      {
        id: "call_abcdefgh",
        name: "add_note",
        arguments: { text: "buy <milk>" },
        argumentsText: '{"text":"buy \\u003cmilk\\u003e"}',
      },
    ]);
    expect([read.promptTokens, read.outputTokens]).toEqual([undefined, undefined]);
  });
});

describe("Anthropic messages", () => {
  it("a tool turn: tool_use block with input, stop_reason tool_use (TestToMessagesResponse_WithToolCalls)", () => {
    const body = dialectWriter("anthropic", { model: "qwen2.5:7b" }, ids).whole(toolTurn);
    expect(body).toEqual({
      id: `msg_${"ab".repeat(12)}`,
      type: "message",
      role: "assistant",
      model: "qwen2.5:7b",
      content: [{ type: "tool_use", id: "call_abcdefgh", name: "add_note", input: { text: "buy <milk>" } }],
      stop_reason: "tool_use",
      usage: { input_tokens: 10, output_tokens: 5 },
    });
  });

  it("a stream: message_start, text block, message_delta end_turn with usage, message_stop (TestStreamConverter_Basic)", () => {
    const w = dialectWriter(
      "anthropic",
      { model: "qwen2.5:7b", messages: [{ role: "user", content: "Hello there, how are you?" }] },
      ids,
    );
    const e = events(textChunks.map((c) => w.chunk(c)).join(""));
    expect(e.map((x) => x.event)).toEqual([
      "message_start",
      "content_block_start",
      "content_block_delta",
      "content_block_delta",
      "content_block_stop",
      "message_delta",
      "message_stop",
    ]);
    expect(e[0]!.data.message.usage.input_tokens).toBe(7);
    expect(e[5]!.data).toEqual({
      type: "message_delta",
      delta: { stop_reason: "end_turn" },
      usage: { input_tokens: 10, output_tokens: 2 },
    });
    const again = dialectWriter("anthropic", {}, ids);
    expect(readResponse("anthropic", textChunks.map((c) => again.chunk(c)).join(""))).toMatchObject({
      content: "Hello",
      doneReason: "end_turn",
      promptTokens: 10,
      outputTokens: 2,
    });
  });

  it("a streamed tool call is one input_json_delta and reads back", () => {
    const w = dialectWriter("anthropic", { model: "m" }, ids);
    const text = w.chunk({ ...toolTurn, done: false }) + w.chunk(textChunks[2]!);
    const e = events(text);
    expect(e.map((x) => x.event)).toEqual([
      "message_start",
      "content_block_start",
      "content_block_delta",
      "content_block_stop",
      "message_delta",
      "message_stop",
    ]);
    expect(e[4]!.data.delta.stop_reason).toBe("tool_use");
    expect(readResponse("anthropic", text).toolCalls).toEqual([
      { id: "call_abcdefgh", name: "add_note", arguments: { text: "buy <milk>" } },
    ]);
  });

  it("stop reasons (TestMapStopReason)", async () => {
    const { stopReason } = await import("@hopscope/shared/dialects/to-anthropic");
    expect([
      stopReason("stop", false),
      stopReason("length", false),
      stopReason("stop", true),
      stopReason("unknown", false),
      stopReason("", false),
    ]).toEqual(["end_turn", "max_tokens", "tool_use", "stop_sequence", ""]);
  });
});

describe("OpenAI responses", () => {
  it("a tool turn is a function_call item with call_id and string arguments", () => {
    const body = dialectWriter("openai-responses", { model: "qwen2.5:7b" }, ids).whole(toolTurn);
    expect(body.output).toEqual([
      {
        id: "fc_resp_499999_0",
        type: "function_call",
        status: "completed",
        call_id: "call_abcdefgh",
        name: "add_note",
        arguments: '{"text":"buy \\u003cmilk\\u003e"}',
      },
    ]);
    expect(body.usage).toMatchObject({ input_tokens: 10, output_tokens: 5, total_tokens: 15 });
  });

  it("a text stream: created, in_progress, item, part, deltas, done events, completed; sequence numbers count up", () => {
    const w = dialectWriter("openai-responses", { model: "qwen2.5:7b" }, ids);
    const text = textChunks.map((c) => w.chunk(c)).join("");
    const e = events(text);
    expect(e.map((x) => x.event)).toEqual([
      "response.created",
      "response.in_progress",
      "response.output_item.added",
      "response.content_part.added",
      "response.output_text.delta",
      "response.output_text.delta",
      "response.output_text.done",
      "response.content_part.done",
      "response.output_item.done",
      "response.completed",
    ]);
    expect(e.map((x) => x.data.sequence_number)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(readResponse("openai-responses", text)).toMatchObject({
      content: "Hello",
      promptTokens: 10,
      outputTokens: 2,
    });
  });
});

describe("OpenAI completions", () => {
  it("text_completion chunks, a usage chunk, [DONE]", () => {
    const w = dialectWriter("openai-completions", { stream_options: { include_usage: true } }, ids);
    const gen = [
      { model: "m", created_at: at, response: "Hi", done: false },
      {
        model: "m",
        created_at: at,
        response: "",
        done: true,
        done_reason: "stop",
        prompt_eval_count: 3,
        eval_count: 1,
      },
    ];
    const text = gen.map((c) => w.chunk(c)).join("");
    expect(readResponse("openai-completions", text)).toMatchObject({
      content: "Hi",
      doneReason: "stop",
      promptTokens: 3,
      outputTokens: 1,
    });
    expect(text.endsWith("data: [DONE]\n\n")).toBe(true);
  });
});

describe("tool call ids", () => {
  it("pass the handler's id through; a native call without one (Ollama < 0.13) gets the middleware's call_ + 8 characters", () => {
    const noId = {
      ...toolTurn,
      message: {
        role: "assistant",
        content: "",
        tool_calls: [{ function: { index: 0, name: "add_note", arguments: {} } }],
      },
    };
    const body = dialectWriter("openai-chat", {}, { ...ids, random: () => 0 }).whole(noId) as {
      choices: { message: { tool_calls: { id: string }[] } }[];
    };
    expect(body.choices[0]!.message.tool_calls[0]!.id).toBe("call_aaaaaaaa");
    const kept = dialectWriter("openai-chat", {}, ids).whole(toolTurn) as typeof body;
    expect(kept.choices[0]!.message.tool_calls[0]!.id).toBe("call_abcdefgh");
  });
});
