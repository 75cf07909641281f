import { describe, expect, it } from "vitest";
import { finalEventArrived, refusalMessage } from "@hopscope/shared/trace/stream-end";
import { classifyMcp } from "@hopscope/shared/trace/classify-mcp";
import { isNormalEnd } from "@hopscope/shared/trace/stdio-ingest";

describe("a stream's final event", () => {
  it("is read in every dialect", () => {
    const responses = 'event: response.completed\ndata: {"type":"response.completed","response":{}}\n\n';
    const anthropic = 'event: message_stop\ndata: {"type":"message_stop"}\n\n';
    const openai = 'data: {"choices":[{"delta":{},"finish_reason":"stop"}]}\n\ndata: [DONE]\n\n';
    const ollama = '{"message":{"content":"Hi"},"done":false}\n{"message":{"content":""},"done":true}\n';
    for (const text of [responses, anthropic, openai, ollama]) expect(finalEventArrived(text, true)).toBe(true);
  });

  it("is missing from a stream cut before its end, even when what arrived parses", () => {
    expect(finalEventArrived('{"message":{"content":"Hel"},"done":false}\n', true)).toBe(false);
    expect(finalEventArrived('data: {"type":"response.output_text.delta","delta":"Hi"}\n\n', true)).toBe(false);
    expect(finalEventArrived(null, true)).toBe(false);
    // An answer asked for whole is whole when it parses.
    expect(finalEventArrived('{"message":{"content":"Hi"}}', false)).toBe(true);
    expect(finalEventArrived('{"message":{"con', false)).toBe(false);
  });
});

describe("a model server's refusal", () => {
  it("carries its message in each dialect's error shape", () => {
    expect(refusalMessage('{"error":"\\"qwen2.5:7b\\" does not support thinking"}')).toBe(
      '"qwen2.5:7b" does not support thinking',
    );
    expect(refusalMessage('{"error":{"message":"bad model","type":"invalid_request_error"}}')).toBe("bad model");
    expect(refusalMessage('{"type":"error","error":{"type":"invalid_request_error","message":"too long"}}')).toBe(
      "too long",
    );
    expect(refusalMessage("Bad Gateway")).toBe("Bad Gateway");
    expect(refusalMessage("")).toBeNull();
  });
});

describe("optional MCP probes and stdio ends", () => {
  const answer = (method: string) =>
    classifyMcp({
      status: 200,
      requestText: JSON.stringify({ jsonrpc: "2.0", id: 4, method }),
      responseText: JSON.stringify({ jsonrpc: "2.0", id: 4, error: { code: -32601, message: "Method not found" } }),
      responseContentType: "application/json",
    });

  it("a -32601 to prompts/list or resources/list is not offered; to anything else, a protocol error", () => {
    for (const m of ["prompts/list", "resources/list", "resources/templates/list"])
      expect(answer(m)).toMatchObject({ outcome: "not-offered", errorCode: -32601 });
    expect(answer("tools/call")).toMatchObject({ outcome: "protocol-error" });
  });

  it("a host's stop of its stdio server is a normal end; a crash is not", () => {
    for (const [code, signal] of [
      [0, null],
      [null, "SIGTERM"],
      [null, "SIGINT"],
      [143, null],
      [130, null],
    ] as const)
      expect(isNormalEnd(code, signal)).toBe(true);
    expect(isNormalEnd(1, null)).toBe(false);
    expect(isNormalEnd(null, "SIGKILL")).toBe(false);
    expect(isNormalEnd(null, "SIGSEGV")).toBe(false);
  });
});
