/**
 * Dual-era serving over raw HTTP: 2025-era `initialize` answered statelessly (no Mcp-Session-Id is
 * minted or needed), `notifications/initialized` 202, envelope-less tools/list and tools/call served.
 */
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ErrorCode } from "@hopscope/shared/mcp/errors";
import {
  InitializeResultSchema,
  LegacyCallToolResultSchema,
  LegacyListToolsResultSchema,
} from "@hopscope/shared/mcp/legacy";
import { resultResponseSchema } from "@hopscope/shared/mcp/schemas";
import { type TestServer, post, startTestServer } from "./helpers";

let srv: TestServer;
beforeAll(async () => {
  srv = await startTestServer();
});
afterAll(() => srv.close());

const initialize = (protocolVersion: string) => ({
  jsonrpc: "2.0",
  id: 0,
  method: "initialize",
  params: { protocolVersion, capabilities: {}, clientInfo: { name: "curl", version: "0" } },
});

describe("legacy initialize", () => {
  it.each(["2025-11-25", "2025-06-18", "2025-03-26"])(
    "answers %s with the same version and no session id",
    async (v) => {
      const r = await post(srv.mcp, initialize(v));
      expect(r.status).toBe(200);
      const body = resultResponseSchema(InitializeResultSchema).parse(r.json);
      expect(body.result.protocolVersion).toBe(v);
      expect(body.result.serverInfo.name).toBe("hopscope-notes");
      expect(body.result.capabilities.tools).toBeDefined();
      expect(r.headers.get("mcp-session-id")).toBeNull();
    },
  );

  it("offers 2025-11-25 to a client asking for a version it does not serve", async () => {
    const r = await post(srv.mcp, initialize("2024-11-05"));
    expect(r.json.result.protocolVersion).toBe("2025-11-25");
  });

  it("initialize without clientInfo → in-band -32602", async () => {
    const r = await post(srv.mcp, {
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-11-25" },
    });
    expect(r.status).toBe(200);
    expect(r.json.error.code).toBe(ErrorCode.InvalidParams);
    expect(r.json.id).toBe(1);
  });

  it("notifications/initialized → 202 with no body", async () => {
    const r = await post(
      srv.mcp,
      { jsonrpc: "2.0", method: "notifications/initialized" },
      { "mcp-protocol-version": "2025-11-25" },
    );
    expect(r.status).toBe(202);
    expect(r.text).toBe("");
  });
});

describe("legacy requests without the envelope", () => {
  it("tools/list works with any (or no) session id, and results keep the 2025 shape", async () => {
    const r = await post(
      srv.mcp,
      { jsonrpc: "2.0", id: 2, method: "tools/list" },
      { "mcp-protocol-version": "2025-06-18", "mcp-session-id": "never-issued" },
    );
    expect(r.status).toBe(200);
    const body = resultResponseSchema(LegacyListToolsResultSchema).parse(r.json);
    expect(body.result.tools).toHaveLength(5);
    expect(r.json.result.resultType).toBeUndefined();
  });

  it("tools/call append then read", async () => {
    const a = await post(srv.mcp, {
      jsonrpc: "2.0",
      id: 3,
      method: "tools/call",
      params: { name: "append", arguments: { content: "from 2025" } },
    });
    expect(resultResponseSchema(LegacyCallToolResultSchema).parse(a.json).result.content).toEqual([
      { type: "text", text: "Success" },
    ]);
    const r = await post(
      srv.mcp,
      { jsonrpc: "2.0", id: 4, method: "tools/call", params: { name: "read" } },
      { "mcp-protocol-version": "2025-11-25" },
    );
    expect(r.json.result.content[0].text).toContain("from 2025\n");
  });

  it("unknown tool → in-band -32602", async () => {
    const r = await post(srv.mcp, {
      jsonrpc: "2.0",
      id: 5,
      method: "tools/call",
      params: { name: "rm", arguments: {} },
    });
    expect(r.status).toBe(200);
    expect(r.json.error.code).toBe(ErrorCode.InvalidParams);
  });

  it("ping → {}", async () => {
    const r = await post(srv.mcp, { jsonrpc: "2.0", id: 6, method: "ping" });
    expect(r.json.result).toEqual({});
  });

  it("unknown legacy method → in-band -32601", async () => {
    const r = await post(srv.mcp, { jsonrpc: "2.0", id: 7, method: "resources/list" });
    expect(r.status).toBe(200);
    expect(r.json.error.code).toBe(ErrorCode.MethodNotFound);
  });

  it("an unsupported MCP-Protocol-Version header on legacy traffic → 400 -32022 listing every served version", async () => {
    const r = await post(
      srv.mcp,
      { jsonrpc: "2.0", id: 8, method: "tools/list" },
      { "mcp-protocol-version": "2024-11-05" },
    );
    expect(r.status).toBe(400);
    expect(r.json.error.code).toBe(ErrorCode.UnsupportedProtocolVersion);
    expect(r.json.error.data).toEqual({
      supported: ["2026-07-28", "2025-11-25", "2025-06-18", "2025-03-26"],
      requested: "2024-11-05",
    });
    expect(r.json.id).toBe(8);
  });

  it("the v2 client in its default (legacy) mode connects and calls a tool", async () => {
    const client = new Client({ name: "v2-legacy", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(srv.mcp)));
    try {
      expect(client.getProtocolEra()).toBe("legacy");
      const r = await client.callTool({ name: "read", arguments: {} });
      expect(r.isError).toBeFalsy();
    } finally {
      await client.close();
    }
  });
});
