/** `hopscope notes-server --stdio` as a host launches it, from another working directory: answers on stdout, ends with its stdin. */
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { HOPSCOPE_CLI, StdioHost, TSX } from "./support/stdio-host";

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "hopscope-notes-cli-"));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

it("serves MCP over stdio through the CLI and exits 0 at the end of its input", async () => {
  const notesFile = path.join(dir, "db");
  const host = new StdioHost(
    [process.execPath, "--import", TSX, HOPSCOPE_CLI, "notes-server", "--stdio"],
    { NOTES_FILE: notesFile },
    dir,
  );
  await host.converse([
    {
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "cli-test", version: "1" } },
    },
    { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "append", arguments: { content: "buy milk" } } },
  ]);
  expect(await host.close()).toEqual({ code: 0, signal: null });
  const answers = host.stdout
    .toString()
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as { id: number; result: Record<string, unknown> });
  expect(answers.map((a) => a.id)).toEqual([1, 2]);
  expect(answers[0]!.result).toMatchObject({ protocolVersion: "2025-06-18", serverInfo: { name: "hopscope-notes" } });
  expect(await readFile(notesFile, "utf8")).toBe("buy milk\n");
  expect(host.stderr).toMatch(/mcp-server: MCP over stdio/);
});
