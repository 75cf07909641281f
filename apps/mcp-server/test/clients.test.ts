/**
 * The official clients against the real server: `@modelcontextprotocol/client` v2 pinned to
 * 2026-07-28 (modern era, server/discover first), and the SDK 1.x client (legacy `initialize`).
 */
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { Client as LegacyClient } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as LegacyTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { writeFile } from "node:fs/promises";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type TestServer, startTestServer } from "./helpers";

let srv: TestServer;
beforeAll(async () => {
  srv = await startTestServer();
});
afterAll(() => srv.close());
beforeEach(() => writeFile(srv.notesFile, ""));

function textOf(result: unknown): string {
  const content = (result as { content: Array<{ type: string; text?: string }> }).content;
  const first = content[0];
  if (first?.type !== "text" || first.text === undefined)
    throw new Error(`expected a text block, got ${JSON.stringify(content)}`);
  return first.text;
}

describe("@modelcontextprotocol/client v2, pinned to 2026-07-28", () => {
  it("discovers, lists and calls every tool", async () => {
    const client = new Client(
      { name: "hopscope-test", version: "1.0.0" },
      { versionNegotiation: { mode: { pin: "2026-07-28" } } },
    );
    await client.connect(new StreamableHTTPClientTransport(new URL(srv.mcp)));
    try {
      expect(client.getProtocolEra()).toBe("modern");
      expect(client.getDiscoverResult()?.supportedVersions).toContain("2026-07-28");
      expect(client.getServerVersion()?.name).toBe("hopscope-notes");

      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toEqual(["read", "write", "append", "update", "clear"]);

      expect(textOf(await client.callTool({ name: "append", arguments: { content: "buy milk" } }))).toBe("Success");
      expect(textOf(await client.callTool({ name: "write", arguments: { content: "eggs\nbuy milk\n" } }))).toBe(
        "Success",
      );
      expect(textOf(await client.callTool({ name: "update", arguments: { search: "milk", replace: "bread" } }))).toBe(
        "Success",
      );
      expect(textOf(await client.callTool({ name: "read", arguments: {} }))).toBe("eggs\nbuy bread\n");
      expect(textOf(await client.callTool({ name: "clear", arguments: {} }))).toBe("Success");
      expect(await srv.notes()).toBe("");

      const bad = await client.callTool({ name: "append", arguments: {} });
      expect(bad.isError).toBe(true);
      expect(textOf(bad)).toMatch(/Param \(content\) is required/);

      await expect(client.callTool({ name: "no_such_tool", arguments: {} })).rejects.toThrow(/Unknown tool/);
    } finally {
      await client.close();
    }
  });
});

describe("@modelcontextprotocol/sdk 1.x (legacy initialize, no session)", () => {
  it("initializes, lists, and calls append and read", async () => {
    const client = new LegacyClient({ name: "legacy-test", version: "1.0.0" });
    const transport = new LegacyTransport(new URL(srv.mcp));
    await client.connect(transport);
    try {
      expect(client.getServerVersion()?.name).toBe("hopscope-notes");
      expect(transport.sessionId).toBeUndefined();
      const { tools } = await client.listTools();
      expect(tools).toHaveLength(5);
      const appended = await client.callTool({ name: "append", arguments: { content: "legacy note" } });
      expect(textOf(appended)).toBe("Success");
      const read = await client.callTool({ name: "read", arguments: {} });
      expect(textOf(read)).toBe("legacy note\n");
    } finally {
      await client.close();
    }
  });
});
