import { describe, expect, it } from "vitest";
import { buildModernRequest, buildToolCallRequest } from "@hopscope/shared/mcp/request";
import { JsonRpcRequestSchema, RequestMetaSchema, responseSchema } from "@hopscope/shared/mcp/schemas";
import { CallToolParamsSchema, CallToolResultSchema } from "@hopscope/shared/mcp/tools";

describe("buildModernRequest", () => {
  it("builds the article's tools/call with mirrored headers", () => {
    const req = buildToolCallRequest(2, "append", { content: "buy milk" });
    expect(req.headers).toEqual({
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": "2026-07-28",
      "mcp-method": "tools/call",
      "mcp-name": "append",
    });
    expect(JsonRpcRequestSchema.parse(req.body).method).toBe("tools/call");
    const params = CallToolParamsSchema.parse(req.body.params);
    expect(params.arguments).toEqual({ content: "buy milk" });
    expect(params._meta).toEqual({
      "io.modelcontextprotocol/protocolVersion": "2026-07-28",
      "io.modelcontextprotocol/clientCapabilities": {},
    });
  });

  it("adds clientInfo and traceparent to _meta (and traceparent as a header), and encodes a non-ASCII name", () => {
    const tp = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01";
    const req = buildModernRequest({
      id: "x",
      method: "tools/call",
      params: { name: "noté" },
      clientInfo: { name: "host", version: "1" },
      traceparent: tp,
    });
    const meta = RequestMetaSchema.parse(req.body.params._meta);
    expect(meta["io.modelcontextprotocol/clientInfo"]).toEqual({ name: "host", version: "1" });
    expect(meta.traceparent).toBe(tp);
    expect(req.headers.traceparent).toBe(tp);
    expect(req.headers["mcp-name"]).toMatch(/^=\?base64\?.*\?=$/);
  });

  it("sends no Mcp-Name for methods that do not mirror one", () => {
    expect(buildModernRequest({ id: 1, method: "tools/list" }).headers["mcp-name"]).toBeUndefined();
  });
});

describe("RequestMetaSchema", () => {
  it("requires protocolVersion and clientCapabilities", () => {
    const r = RequestMetaSchema.safeParse({ "io.modelcontextprotocol/protocolVersion": "2026-07-28" });
    expect(r.success).toBe(false);
    expect(r.error?.issues[0]?.path).toEqual(["io.modelcontextprotocol/clientCapabilities"]);
  });
});

describe("responseSchema", () => {
  const schema = responseSchema(CallToolResultSchema);
  it("accepts the article's moment-7 response and a JSON-RPC error, and rejects a result without content", () => {
    const ok = {
      jsonrpc: "2.0",
      id: 2,
      result: {
        resultType: "complete",
        content: [{ type: "text", text: "Success" }],
        isError: false,
        _meta: { "io.modelcontextprotocol/serverInfo": { name: "mcp_server", version: "0.0.1-SNAPSHOT" } },
      },
    };
    expect(schema.safeParse(ok).success).toBe(true);
    expect(
      schema.safeParse({ jsonrpc: "2.0", id: 2, error: { code: -32602, message: "Unknown tool: x" } }).success,
    ).toBe(true);
    expect(schema.safeParse({ jsonrpc: "2.0", id: 2, result: { resultType: "complete" } }).success).toBe(false);
  });
});
