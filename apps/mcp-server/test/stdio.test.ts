/**
 * The notes server over stdio, launched as a host launches it (a child process of its entry point), and
 * driven by the official stdio clients: SDK 1.x (legacy initialize) and v2 pinned to 2026-07-28. Same five
 * tools, same errors, same notes file and queue as over HTTP; stdout carries nothing but JSON-RPC.
 */
import { spawn } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { Client as LegacyClient } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport as LegacyStdio } from "@modelcontextprotocol/sdk/client/stdio.js";

const ENTRY = fileURLToPath(new URL("../src/stdio-main.ts", import.meta.url));
const server = { command: process.execPath, args: ["--import", import.meta.resolve("tsx"), ENTRY] };

let dir: string;
let notesFile: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "mcp-stdio-"));
  notesFile = join(dir, "db");
});
afterAll(() => rm(dir, { recursive: true, force: true }));
beforeEach(() => writeFile(notesFile, ""));

const env = () => ({ PATH: process.env.PATH ?? "", NOTES_FILE: notesFile });
const textOf = (r: unknown) => (r as { content: { text: string }[] }).content[0]?.text;

describe("notes server over stdio", () => {
  it("serves the SDK 1.x stdio client: five tools, a tool error, a protocol error, 50 concurrent appends", async () => {
    const client = new LegacyClient({ name: "stdio-legacy", version: "1.0.0" });
    await client.connect(new LegacyStdio({ ...server, env: env() }));
    try {
      expect((await client.listTools()).tools.map((t) => t.name)).toEqual([
        "read",
        "write",
        "append",
        "update",
        "clear",
      ]);
      await Promise.all(
        Array.from({ length: 50 }, (_, i) => client.callTool({ name: "append", arguments: { content: `note ${i}` } })),
      );
      expect((await readFile(notesFile, "utf8")).split("\n").filter(Boolean)).toHaveLength(50);
      const bad = await client.callTool({ name: "append", arguments: {} });
      expect(bad.isError).toBe(true);
      expect(textOf(bad)).toMatch(/Param \(content\) is required/);
      await expect(client.callTool({ name: "add_note", arguments: {} })).rejects.toThrow(/Unknown tool: add_note/);
    } finally {
      await client.close();
    }
  });

  it("serves the v2 stdio client pinned to 2026-07-28", async () => {
    const client = new Client(
      { name: "stdio-modern", version: "1.0.0" },
      { versionNegotiation: { mode: { pin: "2026-07-28" } } },
    );
    await client.connect(new StdioClientTransport({ ...server, env: env() }));
    try {
      expect(client.getProtocolEra()).toBe("modern");
      expect(client.getServerVersion()?.name).toBe("hopscope-notes");
      expect(textOf(await client.callTool({ name: "append", arguments: { content: "buy milk" } }))).toBe("Success");
      expect(textOf(await client.callTool({ name: "read", arguments: {} }))).toBe("buy milk\n");
    } finally {
      await client.close();
    }
  });

  it("answers bad lines with JSON-RPC errors on stdout and logs only to stderr", async () => {
    const child = spawn(server.command, server.args, {
      env: { ...env(), MCP_MAX_BODY_BYTES: "200" },
      stdio: ["pipe", "pipe", "pipe"],
    });
    let out = "";
    let err = "";
    child.stdout.on("data", (c: Buffer) => (out += c.toString()));
    child.stderr.on("data", (c: Buffer) => (err += c.toString()));
    const meta = {
      "io.modelcontextprotocol/protocolVersion": "2026-07-28",
      "io.modelcontextprotocol/clientCapabilities": {},
    };
    child.stdin.end(
      [
        "not json",
        JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} }),
        JSON.stringify({
          jsonrpc: "2.0",
          id: 2,
          method: "tools/call",
          params: { name: "read", _meta: { "io.modelcontextprotocol/protocolVersion": "1999-01-01" } },
        }),
        JSON.stringify({ jsonrpc: "2.0", id: 3, method: "ping", params: { _meta: meta } }),
        JSON.stringify({
          jsonrpc: "2.0",
          id: 4,
          method: "tools/call",
          params: { name: "append", arguments: { content: "x".repeat(300) } },
        }),
        '{"jsonrpc":"2.0","id":5,"method":"tools/list"',
      ].join("\n"),
    );
    const code = await new Promise<number | null>((resolve) => child.on("exit", resolve));
    expect(code).toBe(0);
    const answers = out
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { id: unknown; error?: { code: number; message: string }; result?: unknown });
    const byId = new Map(answers.map((a) => [JSON.stringify(a.id), a]));
    expect(answers.filter((a) => a.id === null).map((a) => a.error?.code)).toEqual([-32700, -32600]);
    expect((byId.get("1")?.result as { tools: unknown[] }).tools).toHaveLength(5);
    expect(byId.get("2")?.error).toMatchObject({ code: -32022 });
    expect(byId.get("3")?.error).toMatchObject({ code: -32601 });
    expect(answers.some((a) => a.error?.message.includes("over the 200-byte limit"))).toBe(true);
    expect(answers).toHaveLength(5);
    expect(err).toMatch(/MCP over stdio/);
    expect(err).toMatch(/ended in the middle of a line/);
  });
});
