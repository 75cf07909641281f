/**
 * Deep JSON never crashes a handler: a 100,000-deep body gets a clear 4xx from the stand-in (Ollama's
 * own status and message: Go's encoding/json stops at 10,000 levels, ChatHandler answers 400), the MCP
 * server (a JSON-RPC parse error) and the host, and each stays up for the next request.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { postJson, startStack, type Stack } from "./support/stack";

const nested = (n: number) => "[".repeat(n) + "]".repeat(n);
const DEEP = nested(100_000);

describe("a 100,000-deep body", () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ record: false });
  });
  afterAll(() => stack?.close());

  it("the stand-in answers 400 with Ollama's message, on /api/chat and /api/generate", async () => {
    for (const path of ["/api/chat", "/api/generate"]) {
      const res = await postJson(`${stack.simUrl}${path}`, `{"model":"qwen2.5:7b","messages":${DEEP}}`);
      expect(res, path).toEqual({ status: 400, body: { error: "invalid character '[' exceeded max depth" } });
    }
    // Go's limit is 10,000: one level more is refused at the 10,001st bracket, whatever its kind.
    const over = await postJson(
      `${stack.simUrl}/api/chat`,
      `{"model":"qwen2.5:7b","options":{"x":${'{"a":'.repeat(9_999)}1${"}".repeat(9_999)}}}`,
    );
    expect(over).toEqual({ status: 400, body: { error: "invalid character '{' exceeded max depth" } });
    const chat = await postJson(`${stack.simUrl}/api/chat`, {
      model: "qwen2.5:7b",
      stream: false,
      messages: [{ role: "user", content: "hi" }],
    });
    expect(chat.status).toBe(200);
  });

  it("a body just under Go's limit is not a 500", async () => {
    const under = await postJson(
      `${stack.simUrl}/api/chat`,
      `{"model":"qwen2.5:7b","stream":false,"messages":[{"role":"user","content":"hi"}],"options":{"x":${nested(9_990)}}}`,
    );
    expect(under.status).toBeLessThan(500);
  });

  it("the MCP server answers a JSON-RPC parse error (400), and still serves", async () => {
    const res = await postJson(stack.mcpServerUrl, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":${DEEP}}`);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      jsonrpc: "2.0",
      id: null,
      error: { code: -32700, message: expect.stringMatching(/^Parse error: JSON nested deeper than 1000 levels/) },
    });
  });

  it("the host answers 400 saying what is wrong", async () => {
    const res = await postJson(`${stack.hostUrl}/agent`, `{"message":"hi","conversationId":${DEEP}}`);
    expect(res.status).toBe(400);
    expect((res.body as { error: string }).error).toMatch(/^invalid \/agent body: JSON nested deeper than 1000 levels/);
    expect((await stack.ask("Add buy milk to my notes")).status).toBe(200);
  });
});
