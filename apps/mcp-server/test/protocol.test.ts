/**
 * MCP 2026-07-28 over real HTTP: every method, and every row of the spec's validation table
 * (mcp-2026-07-28.md §2.10) with its HTTP status and JSON-RPC code, in the SDK's precedence.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MODERN_PROTOCOL_VERSION } from "@hopscope/shared/mcp/constants";
import { DiscoverResultSchema } from "@hopscope/shared/mcp/discover";
import { ErrorCode } from "@hopscope/shared/mcp/errors";
import { buildModernRequest } from "@hopscope/shared/mcp/request";
import {
  JsonRpcErrorResponseSchema,
  UnsupportedVersionDataSchema,
  resultResponseSchema,
} from "@hopscope/shared/mcp/schemas";
import { CallToolResultSchema, ListToolsResultSchema } from "@hopscope/shared/mcp/tools";
import { type TestServer, modern, post, startTestServer } from "./helpers";

let srv: TestServer;
beforeAll(async () => {
  srv = await startTestServer();
});
afterAll(() => srv.close());

const META = {
  "io.modelcontextprotocol/protocolVersion": MODERN_PROTOCOL_VERSION,
  "io.modelcontextprotocol/clientCapabilities": {},
};
const H = (method: string, extra: Record<string, string> = {}) => ({
  "mcp-protocol-version": MODERN_PROTOCOL_VERSION,
  "mcp-method": method,
  ...extra,
});

function expectError(
  reply: { status: number; json: unknown },
  status: number,
  code: number,
  id: string | number | null,
) {
  expect(reply.status).toBe(status);
  const body = JsonRpcErrorResponseSchema.parse(reply.json);
  expect(body.error.code).toBe(code);
  expect(body.id).toBe(id);
  return body;
}

describe("modern methods", () => {
  it("server/discover names the version, the tools capability and the server, with cache hints", async () => {
    const r = await modern(srv.mcp, "discover-1", "server/discover");
    expect(r.status).toBe(200);
    expect(r.headers.get("content-type")).toMatch(/^application\/json/);
    const body = resultResponseSchema(DiscoverResultSchema).parse(r.json);
    expect(body.id).toBe("discover-1");
    expect(body.result.resultType).toBe("complete");
    expect(body.result.supportedVersions).toEqual(["2026-07-28"]);
    expect(body.result.capabilities.tools).toBeDefined();
    expect(Number.isInteger(body.result.ttlMs)).toBe(true);
    expect(body.result.cacheScope).toBe("public");
    expect(body.result._meta?.["io.modelcontextprotocol/serverInfo"]?.name).toBe("hopscope-notes");
  });

  it("tools/list returns the five tools with strict input schemas", async () => {
    const r = await modern(srv.mcp, 1, "tools/list");
    const body = resultResponseSchema(ListToolsResultSchema).parse(r.json);
    expect(body.result.tools.map((t) => t.name)).toEqual(["read", "write", "append", "update", "clear"]);
    for (const tool of body.result.tools) {
      expect(tool.inputSchema.additionalProperties).toBe(false);
      expect(tool.description?.length).toBeGreaterThan(20);
    }
    const byName = Object.fromEntries(body.result.tools.map((t) => [t.name, t]));
    expect(byName.write?.description).toMatch(/REPLACE/);
    expect(byName.write?.description).toMatch(/append/);
    expect(byName.append?.inputSchema.required).toEqual(["content"]);
    expect(byName.update?.inputSchema.required).toEqual(["search", "replace"]);
    expect(byName.read?.inputSchema.required).toBeUndefined();
    expect(body.result.resultType).toBe("complete");
    expect(Number.isInteger(body.result.ttlMs)).toBe(true);
    expect(body.result._meta?.["io.modelcontextprotocol/serverInfo"]).toEqual({
      name: "hopscope-notes",
      version: "0.1.0",
    });
  });

  it("tools/call returns a complete result with serverInfo", async () => {
    const r = await modern(srv.mcp, 7, "tools/call", { name: "read" });
    const body = resultResponseSchema(CallToolResultSchema).parse(r.json);
    expect(body.result.resultType).toBe("complete");
    expect(body.result.isError).toBe(false);
    expect(body.result._meta?.["io.modelcontextprotocol/serverInfo"]?.version).toBe("0.1.0");
  });

  it("a request without clientInfo still succeeds", async () => {
    const r = await post(
      srv.mcp,
      { jsonrpc: "2.0", id: 3, method: "tools/list", params: { _meta: META } },
      H("tools/list"),
    );
    expect(r.status).toBe(200);
    expect(r.json.result.tools).toHaveLength(5);
  });

  it("a Base64-sentinel Mcp-Name is decoded before comparing", async () => {
    const r = await post(
      srv.mcp,
      { jsonrpc: "2.0", id: 4, method: "tools/call", params: { _meta: META, name: "read" } },
      H("tools/call", { "mcp-name": `=?base64?${btoa("read")}?=` }),
    );
    expect(r.status).toBe(200);
    expect(r.json.result.isError).toBe(false);
  });

  it("an Mcp-Session-Id header is ignored and never minted", async () => {
    const req = buildModernRequest({ id: 5, method: "tools/list" });
    const r = await post(srv.mcp, req.body, { ...req.headers, "mcp-session-id": "stale-session" });
    expect(r.status).toBe(200);
    expect(r.headers.get("mcp-session-id")).toBeNull();
  });
});

describe("validation table", () => {
  it("MCP-Protocol-Version ≠ _meta version → 400 -32020, even when the body's version is unknown (mismatch first)", async () => {
    const r = await post(
      srv.mcp,
      {
        jsonrpc: "2.0",
        id: 10,
        method: "tools/list",
        params: { _meta: { ...META, "io.modelcontextprotocol/protocolVersion": "v999.0.0" } },
      },
      H("tools/list"),
    );
    expectError(r, 400, ErrorCode.HeaderMismatch, 10);
    expect(r.json.error.message).toMatch(/MCP-Protocol-Version/);
  });

  it("Mcp-Method ≠ method → 400 -32020", async () => {
    const r = await post(
      srv.mcp,
      { jsonrpc: "2.0", id: 11, method: "tools/list", params: { _meta: META } },
      H("tools/call"),
    );
    expectError(r, 400, ErrorCode.HeaderMismatch, 11);
  });

  it("Mcp-Name ≠ params.name → 400 -32020", async () => {
    const r = await post(
      srv.mcp,
      {
        jsonrpc: "2.0",
        id: 12,
        method: "tools/call",
        params: { _meta: META, name: "append", arguments: { content: "x" } },
      },
      H("tools/call", { "mcp-name": "clear" }),
    );
    expectError(r, 400, ErrorCode.HeaderMismatch, 12);
    expect(await srv.notes()).not.toContain("x\n");
  });

  it("a malformed Base64 sentinel in Mcp-Name → 400 -32020", async () => {
    const r = await post(
      srv.mcp,
      { jsonrpc: "2.0", id: 13, method: "tools/call", params: { _meta: META, name: "read" } },
      H("tools/call", { "mcp-name": "=?base64?###?=" }),
    );
    expectError(r, 400, ErrorCode.HeaderMismatch, 13);
  });

  it("unsupported version (header = body) → 400 -32022 with data.supported and data.requested", async () => {
    const meta = { ...META, "io.modelcontextprotocol/protocolVersion": "2099-01-01" };
    const r = await post(
      srv.mcp,
      { jsonrpc: "2.0", id: 14, method: "tools/list", params: { _meta: meta } },
      H("tools/list", { "mcp-protocol-version": "2099-01-01" }),
    );
    const body = expectError(r, 400, ErrorCode.UnsupportedProtocolVersion, 14);
    expect(UnsupportedVersionDataSchema.parse(body.error.data)).toEqual({
      supported: ["2026-07-28"],
      requested: "2099-01-01",
    });
  });

  it("missing MCP-Protocol-Version header → 400 -32020", async () => {
    const r = await post(
      srv.mcp,
      { jsonrpc: "2.0", id: 15, method: "tools/list", params: { _meta: META } },
      { "mcp-method": "tools/list" },
    );
    expectError(r, 400, ErrorCode.HeaderMismatch, 15);
    expect(r.json.error.message).toMatch(/MCP-Protocol-Version/);
  });

  it("missing Mcp-Method header → 400 -32020", async () => {
    const r = await post(
      srv.mcp,
      { jsonrpc: "2.0", id: 16, method: "tools/list", params: { _meta: META } },
      { "mcp-protocol-version": MODERN_PROTOCOL_VERSION },
    );
    expectError(r, 400, ErrorCode.HeaderMismatch, 16);
    expect(r.json.error.message).toMatch(/Mcp-Method/);
  });

  it("missing Mcp-Name on tools/call → 400 -32020", async () => {
    const r = await post(
      srv.mcp,
      { jsonrpc: "2.0", id: 17, method: "tools/call", params: { _meta: META, name: "read" } },
      H("tools/call"),
    );
    expectError(r, 400, ErrorCode.HeaderMismatch, 17);
    expect(r.json.error.message).toMatch(/Mcp-Name/);
  });

  it("modern headers but no _meta → 400 -32602", async () => {
    const r = await post(srv.mcp, { jsonrpc: "2.0", id: 18, method: "tools/list" }, H("tools/list"));
    expectError(r, 400, ErrorCode.InvalidParams, 18);
  });

  it("_meta without clientCapabilities → 400 -32602 naming the key", async () => {
    const meta = { "io.modelcontextprotocol/protocolVersion": MODERN_PROTOCOL_VERSION };
    const r = await post(
      srv.mcp,
      { jsonrpc: "2.0", id: 19, method: "tools/list", params: { _meta: meta } },
      H("tools/list"),
    );
    expectError(r, 400, ErrorCode.InvalidParams, 19);
    expect(r.json.error.message).toMatch(/clientCapabilities/);
  });

  it("_meta without protocolVersion → 400 -32602", async () => {
    const meta = { "io.modelcontextprotocol/clientCapabilities": {} };
    const r = await post(
      srv.mcp,
      { jsonrpc: "2.0", id: 20, method: "tools/list", params: { _meta: meta } },
      H("tools/list"),
    );
    expectError(r, 400, ErrorCode.InvalidParams, 20);
    expect(r.json.error.message).toMatch(/protocolVersion/);
  });

  it.each(["initialize", "ping", "resources/list", "logging/setLevel", "no/such/method"])(
    "unknown method %s with a modern envelope → 404 -32601",
    async (method) => {
      const r = await modern(srv.mcp, `m-${method}`, method);
      expectError(r, 404, ErrorCode.MethodNotFound, `m-${method}`);
    },
  );

  it("unknown tool → HTTP 200 with in-band -32602", async () => {
    const r = await modern(srv.mcp, 21, "tools/call", { name: "delete_everything", arguments: {} });
    expectError(r, 200, ErrorCode.InvalidParams, 21);
    expect(r.json.error.message).toMatch(/Unknown tool: delete_everything/);
  });

  it("an invalid tools/list cursor → in-band -32602", async () => {
    const r = await modern(srv.mcp, 22, "tools/list", { cursor: "page-2" });
    expectError(r, 200, ErrorCode.InvalidParams, 22);
  });

  it("tools/call without a name → in-band -32602", async () => {
    const r = await post(
      srv.mcp,
      { jsonrpc: "2.0", id: 23, method: "tools/call", params: { _meta: META, arguments: {} } },
      H("tools/call", { "mcp-name": "read" }),
    );
    expectError(r, 200, ErrorCode.InvalidParams, 23);
  });

  it("invalid JSON → 400 -32700 with id null", async () => {
    const r = await post(srv.mcp, '{"jsonrpc":"2.0","id":1,', H("tools/list"));
    expectError(r, 400, ErrorCode.ParseError, null);
  });

  it("a body that is not UTF-8 → 400 -32700", async () => {
    const res = await fetch(srv.mcp, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: new Uint8Array([0x7b, 0xff, 0xfe, 0x7d]),
    });
    expect(res.status).toBe(400);
    expect((await res.json()).error.code).toBe(ErrorCode.ParseError);
  });

  it.each([
    ["wrong jsonrpc version", { jsonrpc: "1.0", id: 30, method: "tools/list" }, 30],
    ["method not a string", { jsonrpc: "2.0", id: 31, method: 5 }, 31],
    ["a posted response", { jsonrpc: "2.0", id: 32, result: {} }, 32],
    ["params an array", { jsonrpc: "2.0", id: 33, method: "tools/list", params: [] }, 33],
    ["a bare string", "hello", null],
  ] as const)("invalid request (%s) → 400 -32600", async (_, body, id) => {
    const r = await post(srv.mcp, JSON.stringify(body), H("tools/list"));
    expectError(r, 400, ErrorCode.InvalidRequest, id);
  });

  it("a batch array → 400 -32600, and nothing in it runs", async () => {
    const before = await srv.notes();
    const call = buildModernRequest({
      id: 40,
      method: "tools/call",
      params: { name: "append", arguments: { content: "batched" } },
    });
    const r = await post(srv.mcp, [call.body], call.headers);
    expectError(r, 400, ErrorCode.InvalidRequest, null);
    expect(await srv.notes()).toBe(before);
  });

  it("a notification → 202 with no body", async () => {
    const r = await post(srv.mcp, {
      jsonrpc: "2.0",
      method: "notifications/cancelled",
      params: { _meta: META, requestId: 1 },
    });
    expect(r.status).toBe(202);
    expect(r.text).toBe("");
  });

  it("any other path → 404 naming the endpoint", async () => {
    const res = await fetch(`${srv.url}/other`, { method: "POST" });
    expect(res.status).toBe(404);
    expect((await res.json()).error).toMatch(/POST \/mcp/);
  });

  it.each(["GET", "DELETE"])("%s /mcp → 405 with Allow: POST", async (method) => {
    const res = await fetch(srv.mcp, { method });
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe("POST");
    expect(res.headers.get("content-type")).toMatch(/json/);
    await res.text();
  });

  it("a non-JSON Content-Type → 415", async () => {
    const req = buildModernRequest({ id: 50, method: "tools/list" });
    const r = await post(srv.mcp, req.body, { ...req.headers, "content-type": "text/plain" });
    expect(r.status).toBe(415);
    expect(r.json.error.message).toMatch(/application\/json/);
  });

  it.each(["http://evil.example", "null", "http://localhost.evil.example:8080"])("Origin %s → 403", async (origin) => {
    const req = buildModernRequest({ id: 51, method: "tools/list" });
    const r = await post(srv.mcp, req.body, { ...req.headers, origin });
    expect(r.status).toBe(403);
    expect(r.json.error).toBeDefined();
  });

  it.each(["http://localhost:5173", "http://127.0.0.1:7070", "http://[::1]:8080"])(
    "local Origin %s is allowed",
    async (origin) => {
      const req = buildModernRequest({ id: 52, method: "tools/list" });
      const r = await post(srv.mcp, req.body, { ...req.headers, origin });
      expect(r.status).toBe(200);
    },
  );
});
