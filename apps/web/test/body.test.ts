import { describe, expect, it } from "vitest";
import { bodyText, chunkTexts, displayHeaderValue, prettyText, streamedContent, tryJson } from "../src/models/body";

describe("bodies", () => {
  it("decodes base64 bodies and slices chunks by byte offset across multi-byte characters", () => {
    const text = '{"message":{"content":"é"}}\n';
    const bytes = new TextEncoder().encode(text);
    const body = {
      encoding: "base64" as const,
      data: btoa(String.fromCharCode(...bytes)),
      size: bytes.length,
      storedSize: bytes.length,
      truncated: false,
    };
    expect(bodyText(body)).toBe(text);
    const split = 24; // inside the two bytes of "é"
    const parts = chunkTexts(body, [
      { index: 0, t: 0, offset: 0, size: split },
      { index: 1, t: 1, offset: split, size: bytes.length - split },
    ]);
    expect(parts.join("")).toBe(text);
  });

  it("rebuilds a streamed tool call as the <tool_call> text the model wrote", () => {
    const texts = [
      '{"message":{"role":"assistant","content":"","tool_calls":[{"function":{"name":"append","arguments":{"content":"buy milk"}}}]},"done":false}\n',
    ];
    expect(streamedContent(texts)).toBe(
      '<tool_call>\n{"name": "append", "arguments": {"content": "buy milk"}}\n</tool_call>',
    );
  });

  it("accumulates streamed assistant text only from complete NDJSON lines", () => {
    const texts = [
      '{"message":{"role":"assistant","content":"I\'ve "},"done":false}\n{"message":{"content":"add',
      'ed"},"done":false}\n{"message":{"content":"!"',
    ];
    expect(streamedContent(texts)).toBe("I've added");
  });

  it("accumulates streamed text of every dialect's SSE: OpenAI chat, Anthropic, OpenAI Responses", () => {
    expect(
      streamedContent([
        'data: {"choices":[{"delta":{"content":"I\'ve "}}]}\n\ndata: {"choices":[{"delta":{"content":"added"}}]}\n\ndata: [DONE]\n\n',
      ]),
    ).toBe("I've added");
    expect(
      streamedContent([
        'event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"I\'ve "}}\n\n',
        'event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"added"}}\n\n',
      ]),
    ).toBe("I've added");
    expect(
      streamedContent([
        'event: response.output_text.delta\ndata: {"delta":"I\'ve added","type":"response.output_text.delta"}\n\n',
      ]),
    ).toBe("I've added");
  });

  it("pretty-prints JSON and NDJSON, and leaves other text alone", () => {
    expect(prettyText('{"a":1}')).toBe('{\n  "a": 1\n}');
    expect(prettyText('{"a":1}\n{"b":2}\n')).toBe('{\n  "a": 1\n}\n{\n  "b": 2\n}');
    expect(prettyText("<script>alert(1)</script>")).toBe("<script>alert(1)</script>");
  });

  it("never shows credentials", () => {
    expect(displayHeaderValue("Authorization", "Bearer abc")).toBe("[redacted]");
    expect(displayHeaderValue("content-type", "application/json")).toBe("application/json");
  });
});

describe("pretty SSE", () => {
  it("indents each data payload and keeps the event framing", () => {
    const sse = 'event: message\ndata: {"jsonrpc":"2.0","id":1}\n\n';
    expect(prettyText(sse)).toBe('event: message\ndata: {\n  "jsonrpc": "2.0",\n  "id": 1\n}\n\n');
  });

  it("shows a 100,000-deep body as text instead of walking it into the stack's limit", () => {
    const deep = "[".repeat(100_000) + "]".repeat(100_000);
    expect(tryJson(deep)).toBeUndefined();
    expect(tryJson('{"a":[1]}')).toEqual({ a: [1] });
  });

  it("hides every header the recorder's rule set calls secret", () => {
    for (const name of ["X-Auth-Key", "Set-Cookie", "X-Goog-Api-Key"])
      expect(displayHeaderValue(name, "s")).toBe("[redacted]");
    expect(displayHeaderValue("Content-Type", "application/json")).toBe("application/json");
  });
});
