import { describe, expect, it } from "vitest";
import { classifyExchange } from "@hopscope/shared/trace/classify";
import { MAX_SUMMARY_TEXT } from "@hopscope/shared/trace/json-text";
import { parseSse } from "@hopscope/shared/framing/sse";

const chatReq = JSON.stringify({
  model: "qwen2.5:7b",
  messages: [
    { role: "system", content: "You are a notes assistant." },
    { role: "user", content: "Add buy milk to my notes" },
  ],
  tools: [
    { type: "function", function: { name: "append" } },
    { type: "function", function: { name: "read" } },
  ],
});

// Shapes from ../shared/reference/ollama-qwen25.md §8 (marshalled field order).
const toolCallResponse =
  '{"model":"qwen2.5:7b","created_at":"2026-01-01T00:00:00.000Z","message":{"role":"assistant","content":"","tool_calls":[{"id":"call_ab12cd34","function":{"index":0,"name":"append","arguments":{"content":"buy milk"}}}]},"done":true,"done_reason":"stop","total_duration":5,"load_duration":1,"prompt_eval_count":120,"prompt_eval_duration":2,"eval_count":20,"eval_duration":3}';

describe("classifyExchange: model", () => {
  it("reads a non-streamed /api/chat: counts, tool calls, metrics, simulated header", () => {
    const c = classifyExchange({
      tap: "model",
      method: "POST",
      url: "/api/chat",
      status: 200,
      requestText: chatReq.replace("}]}", '}],"stream":false}'),
      responseText: toolCallResponse,
      responseHeaders: [["X-Hopscope-Simulated", "1"]],
    });
    expect(c).toEqual({
      kind: "model.chat",
      model: "qwen2.5:7b",
      messageCount: 2,
      toolCount: 2,
      stream: false,
      toolCalls: [{ name: "append", arguments: { content: "buy milk" }, id: "call_ab12cd34" }],
      content: "",
      doneReason: "stop",
      promptEvalCount: 120,
      evalCount: 20,
      loadDuration: 1,
      promptEvalDuration: 2,
      evalDuration: 3,
      totalDuration: 5,
      simulated: true,
      line: expect.objectContaining({ head: "You are a notes assistant.", turnCount: 1, turns: [expect.any(String)] }),
    });
  });

  it("aggregates NDJSON lines: content concatenated, tool calls collected, metrics from the done line", () => {
    const lines = [
      '{"model":"m","created_at":"t","message":{"role":"assistant","content":"Sure"},"done":false}',
      '{"model":"m","created_at":"t","message":{"role":"assistant","content":", done"},"done":false}',
      '{"model":"m","created_at":"t","message":{"role":"assistant","content":"","tool_calls":[{"function":{"index":0,"name":"read","arguments":{}}}]},"done":false}',
      '{"model":"m","created_at":"t","message":{"role":"assistant","content":""},"done":true,"done_reason":"stop","eval_count":7}',
    ];
    const c = classifyExchange({
      tap: "model",
      method: "POST",
      url: "/api/chat",
      status: 200,
      requestText: chatReq,
      responseText: `${lines.join("\n")}\n`,
    });
    expect(c).toMatchObject({
      kind: "model.chat",
      stream: true,
      content: "Sure, done",
      toolCalls: [{ name: "read", arguments: {} }],
      evalCount: 7,
      simulated: false,
    });
  });

  it("reads an OpenAI-compatible SSE stream, joining tool-call argument pieces", () => {
    const sse = [
      'data: {"choices":[{"index":0,"delta":{"role":"assistant","tool_calls":[{"index":0,"id":"call_1","type":"function","function":{"name":"append","arguments":"{\\"content\\":"}}]}}]}',
      'data: {"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"\\"buy milk\\"}"}}]},"finish_reason":"tool_calls"}]}',
      "data: [DONE]",
      "",
    ].join("\n\n");
    const c = classifyExchange({
      tap: "model",
      method: "POST",
      url: "/v1/chat/completions",
      status: 200,
      requestText: '{"model":"m","messages":[],"stream":true}',
      responseText: sse,
    });
    expect(c).toMatchObject({
      kind: "model.chat",
      stream: true,
      toolCalls: [{ name: "append", arguments: { content: "buy milk" }, id: "call_1" }],
      doneReason: "tool_calls",
    });
  });

  it("calls other endpoints and unreadable chat bodies model.other", () => {
    expect(
      classifyExchange({
        tap: "model",
        method: "GET",
        url: "/api/tags?x=1",
        status: 200,
        requestText: null,
        responseText: "{}",
      }),
    ).toEqual({
      kind: "model.other",
      endpoint: "/api/tags",
      simulated: false,
    });
    expect(
      classifyExchange({
        tap: "model",
        method: "POST",
        url: "/api/chat",
        status: null,
        requestText: "{not json",
        responseText: null,
      }),
    ).toEqual({
      kind: "model.other",
      endpoint: "/api/chat",
    });
  });

  it("clips long content so summaries stay small", () => {
    const long = "x".repeat(MAX_SUMMARY_TEXT + 10);
    const res = JSON.stringify({
      model: "m",
      created_at: "t",
      message: { role: "assistant", content: long },
      done: true,
    });
    const c = classifyExchange({
      tap: "model",
      method: "POST",
      url: "/api/chat",
      status: 200,
      requestText: chatReq,
      responseText: res,
    });
    expect(c.kind === "model.chat" && c.content?.startsWith("x".repeat(MAX_SUMMARY_TEXT))).toBe(true);
    expect(c.kind === "model.chat" && c.content?.endsWith("[10 more characters in the body]")).toBe(true);
  });
});

describe("classifyExchange: mcp", () => {
  const call =
    '{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"append","arguments":{"content":"buy milk"}}}';
  const mcp = (
    responseText: string | null,
    status: number | null = 200,
    responseHeaders: [string, string][] = [["Content-Type", "application/json"]],
  ) =>
    classifyExchange({
      tap: "mcp",
      method: "POST",
      url: "/mcp",
      status,
      requestText: call,
      responseText,
      responseHeaders,
    });

  it("tells ok, tool error and protocol error apart", () => {
    expect(mcp('{"jsonrpc":"2.0","id":3,"result":{"content":[{"type":"text","text":"Success"}]}}')).toMatchObject({
      outcome: "ok",
      resultText: "Success",
      toolName: "append",
      jsonrpcId: 3,
    });
    expect(
      mcp(
        '{"jsonrpc":"2.0","id":3,"result":{"content":[{"type":"text","text":"Param (content) is required"}],"isError":true}}',
      ),
    ).toMatchObject({
      outcome: "tool-error",
      resultText: "Param (content) is required",
    });
    expect(mcp('{"jsonrpc":"2.0","id":3,"error":{"code":-32602,"message":"Unknown tool: x"}}', 400)).toMatchObject({
      outcome: "protocol-error",
      errorCode: -32602,
      errorMessage: "Unknown tool: x",
    });
  });

  it("joins a result's text items with newlines, leaving out the others", () => {
    const result = {
      content: [
        { type: "text", text: "one" },
        { type: "image", data: "AAAA", mimeType: "image/png" },
        { type: "text", text: "two" },
      ],
    };
    expect(mcp(JSON.stringify({ jsonrpc: "2.0", id: 3, result }))).toMatchObject({
      outcome: "ok",
      resultText: "one\ntwo",
    });
    expect(mcp('{"jsonrpc":"2.0","id":3,"result":{"content":[{"type":"image","data":"AAAA"}]}}')).not.toHaveProperty(
      "resultText",
    );
  });

  it("reads an SSE answer whose Content-Type does not say so, by its shape", () => {
    const sse =
      'event: message\ndata: {"jsonrpc":"2.0","id":3,"result":{"content":[{"type":"text","text":"Success"}]}}\n\n';
    expect(mcp(sse, 200, [])).toMatchObject({ outcome: "ok", resultText: "Success" });
  });

  it("finds the response in an SSE stream after notifications", () => {
    const sse =
      'event: message\ndata: {"jsonrpc":"2.0","method":"notifications/progress","params":{}}\n\nevent: message\ndata: {"jsonrpc":"2.0","id":3,"result":{"content":[{"type":"text","text":"Success"}]}}\n\n';
    expect(mcp(sse, 200, [["content-type", "text/event-stream"]])).toMatchObject({
      outcome: "ok",
      resultText: "Success",
    });
  });

  it("marks pending, HTTP errors without JSON-RPC, and notifications", () => {
    expect(mcp(null, null)).toMatchObject({ outcome: "pending", method: "tools/call" });
    expect(mcp("Bad Gateway", 502)).toMatchObject({ outcome: "http-error" });
    expect(
      classifyExchange({
        tap: "mcp",
        method: "POST",
        url: "/mcp",
        status: 202,
        requestText: '{"jsonrpc":"2.0","method":"notifications/initialized"}',
        responseText: null,
      }),
    ).toEqual({ kind: "mcp", method: "notifications/initialized", outcome: "notification" });
  });
});

describe("classifyExchange: agent", () => {
  it("reads the question and the host's reply", () => {
    expect(
      classifyExchange({
        tap: "agent",
        method: "POST",
        url: "/agent",
        status: 200,
        requestText: '{"message":"Add buy milk to my notes"}',
        responseText: '{"reply":"Added.","conversationId":"c-1","steps":2,"toolCalls":[]}',
      }),
    ).toEqual({ kind: "agent", message: "Add buy milk to my notes", reply: "Added.", conversationId: "c-1" });
    expect(
      classifyExchange({
        tap: "agent",
        method: "GET",
        url: "/health",
        status: 200,
        requestText: null,
        responseText: "{}",
      }),
    ).toEqual({ kind: "other" });
  });
});

describe("parseSse", () => {
  it("joins data lines, skips comments, and drops an event cut off before its blank line", () => {
    expect(parseSse(": keep-alive\r\nevent: a\r\ndata: 1\r\ndata: 2\r\n\r\ndata:3\n\ndata: cut")).toEqual([
      { event: "a", data: "1\n2", end: 44 },
      { event: "message", data: "3", end: 52 },
    ]);
  });
});

describe("mcpSseEvents", () => {
  it("reads an SDK server's SSE answer event by event, with the JSON-RPC message of each and its byte end", async () => {
    const { mcpSseEvents } = await import("@hopscope/shared/trace/mcp-sse");
    const body =
      'event: message\nid: 1\ndata: {"jsonrpc":"2.0","method":"notifications/progress","params":{"progress":1,"message":"héllo"}}\n\n' +
      ": keep-alive\n\n" +
      'event: message\ndata: {"jsonrpc":"2.0","id":3,"result":{"content":[]}}\n\n';
    const events = mcpSseEvents(body);
    expect(events.map((e) => [e.kind, e.label, e.id])).toEqual([
      ["notification", "notifications/progress", "1"],
      ["response", "id 3", "1"], // the last event id carries over, as in a browser
    ]);
    expect(events.at(-1)!.endByte).toBe(new TextEncoder().encode(body).length);
    expect(events[0]!.endByte).toBe(new TextEncoder().encode(body.slice(0, body.indexOf(": keep"))).length);
    expect(mcpSseEvents("data: not json\n\n")[0]).toMatchObject({ kind: "not JSON-RPC", message: undefined });
  });
});
