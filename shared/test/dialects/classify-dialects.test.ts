/** classifyModel in every dialect: tool calls (JSON-string arguments, tool_use blocks), stream flag, usage counts. */
import { describe, expect, it } from "vitest";
import { dialectWriter } from "@hopscope/shared/dialects/convert";
import { classifyModel } from "@hopscope/shared/trace/classify-model";

const ids = { random: () => 0.1, hex: (n: number) => "0".repeat(2 * n), now: () => 0 };
const at = "2026-12-01T09:00:00Z";
const call = { id: "call_x", function: { index: 0, name: "append", arguments: { content: "buy milk" } } };
const native = [
  { model: "m", created_at: at, message: { role: "assistant", content: "", tool_calls: [call] }, done: false },
  {
    model: "m",
    created_at: at,
    message: { role: "assistant", content: "" },
    done: true,
    done_reason: "stop",
    prompt_eval_count: 321,
    eval_count: 17,
  },
];
const whole = { ...native[1]!, message: { role: "assistant", content: "", tool_calls: [call] } };

const cases = [
  {
    path: "/v1/chat/completions",
    d: "openai-chat",
    req: {
      model: "m",
      messages: [{ role: "user", content: "x" }],
      stream: true,
      stream_options: { include_usage: true },
    },
  },
  {
    path: "/v1/messages",
    d: "anthropic",
    req: { model: "m", max_tokens: 5, messages: [{ role: "user", content: "x" }], stream: true },
  },
  { path: "/v1/responses", d: "openai-responses", req: { model: "m", input: "x", stream: true } },
] as const;

describe("classifyModel across dialects", () => {
  for (const { path, d, req } of cases) {
    it(`${path}: streamed tool call, stream flag and usage`, () => {
      const w = dialectWriter(d, req as never, ids);
      const c = classifyModel({
        method: "POST",
        url: path,
        requestText: JSON.stringify(req),
        responseText: native.map((x) => w.chunk(x)).join(""),
      });
      expect(c).toMatchObject({
        kind: "model.chat",
        model: "m",
        messageCount: 1,
        stream: true,
        toolCalls: [{ name: "append", arguments: { content: "buy milk" }, id: "call_x" }],
        promptEvalCount: 321,
        evalCount: 17,
      });
    });
    it(`${path}: whole body, not streamed by default`, () => {
      const body = { ...req } as Record<string, unknown>;
      delete body.stream;
      const c = classifyModel({
        method: "POST",
        url: path,
        requestText: JSON.stringify(body),
        responseText: JSON.stringify(dialectWriter(d, body as never, ids).whole(whole)),
      });
      expect(c).toMatchObject({
        kind: "model.chat",
        stream: false,
        toolCalls: [{ name: "append", arguments: { content: "buy milk" } }],
        promptEvalCount: 321,
        evalCount: 17,
      });
    });
  }

  it("the native stream still defaults to streaming and keeps its durations", () => {
    const c = classifyModel({
      method: "POST",
      url: "/api/chat",
      requestText: '{"model":"m","messages":[]}',
      responseText:
        '{"model":"m","created_at":"x","message":{"role":"assistant","content":"hi"},"done":true,"eval_count":2,"total_duration":99}',
    });
    expect(c).toMatchObject({ kind: "model.chat", stream: true, content: "hi", evalCount: 2, totalDuration: 99 });
  });

  it("a generate endpoint is model.other", () => {
    expect(
      classifyModel({
        method: "POST",
        url: "/v1/completions",
        requestText: '{"model":"m","prompt":"x"}',
        responseText: null,
      }).kind,
    ).toBe("model.other");
  });
});
