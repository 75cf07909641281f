/**
 * `hopscope wrap --config` / `unwrap` on host configs as Claude Desktop, Cursor (`mcpServers`) and VS Code
 * (`servers`, comments allowed) write them: the wrapped entry runs our notes server through the stdio tap
 * when a host launches it (the SDK's stdio client here) and is recorded; `unwrap` gives back the same bytes.
 */
import { execFile } from "node:child_process";
import { readFile, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { parse } from "jsonc-parser";
import { TraceListSchema } from "@hopscope/shared/trace/api";
import { startRecorder, type TestRecorder } from "./support/recorder";
import { backupPath, unwrapFile, wrapFile } from "../scripts/cli/stdio/wrap-config-command";
import { HOPSCOPE_CLI, TSX } from "./support/stdio-host";

const run = promisify(execFile);
const NOTES_SERVER = fileURLToPath(new URL("../apps/mcp-server/src/stdio-main.ts", import.meta.url));

let dir: string;
let recorder: TestRecorder;
beforeAll(async () => {
  recorder = await startRecorder();
  dir = recorder.dir;
});
afterAll(() => recorder?.close());

const claude = (notesFile: string) => `{
  "mcpServers": {
    "weather": {
      "command": "npx",
      "args": ["-y", "some-weather-server"]
    },
    "notes": {
      "command": ${JSON.stringify(process.execPath)},
      "args": ["--import", ${JSON.stringify(TSX)}, ${JSON.stringify(NOTES_SERVER)}],
      "env": { "NOTES_FILE": ${JSON.stringify(notesFile)} }
    }
  },
  "globalShortcut": "Ctrl+Space"
}
`;

const vscode = `{
\t// VS Code's .vscode/mcp.json: comments are allowed
\t"inputs": [],
\t"servers": {
\t\t"notes": { "type": "stdio", "command": "npm", "args": ["run", "-s", "hopscope", "--", "notes-server", "--stdio"] }, // ours
\t\t"remote": { "type": "http", "url": "http://127.0.0.1:8080/mcp" }
\t}
}
`;

interface Entry {
  command: string;
  args: string[];
  env?: Record<string, string>;
}

const entry = (text: string, key: string, name: string) =>
  (parse(text) as Record<string, Record<string, Entry>>)[key]![name]!;

describe("hopscope wrap --config / unwrap", () => {
  it("wraps a Claude Desktop entry, which then runs through the tap and is recorded, and unwraps to the same bytes", async () => {
    const notesFile = path.join(dir, "notes");
    await writeFile(notesFile, "");
    const file = path.join(dir, "claude_desktop_config.json");
    const original = claude(notesFile);
    await writeFile(file, original);

    const { stderr } = await run(process.execPath, [
      "--import",
      TSX,
      HOPSCOPE_CLI,
      "wrap",
      "--config",
      file,
      "--server",
      "notes",
    ]);
    expect(stderr).toMatch(/"notes" in .* now runs through the stdio tap/);
    const text = await readFile(file, "utf8");
    expect(await readFile(backupPath(file, "notes"), "utf8")).toBe(original);
    const notes = entry(text, "mcpServers", "notes");
    expect(notes.command).toBe(process.execPath);
    expect(notes.args.slice(-6)).toEqual(["wrap", "--", process.execPath, "--import", TSX, NOTES_SERVER]);
    expect(notes.env).toEqual({ NOTES_FILE: notesFile });
    expect(entry(text, "mcpServers", "weather")).toEqual({ command: "npx", args: ["-y", "some-weather-server"] });
    expect(text).toContain('"globalShortcut": "Ctrl+Space"');

    // A host launching the entry as written: command, args, env.
    const client = new Client({ name: "a-host", version: "1.0.0" });
    await client.connect(
      new StdioClientTransport({
        command: notes.command,
        args: notes.args,
        env: { PATH: process.env.PATH ?? "", ...notes.env, HOPSCOPE_URL: recorder.url },
      }),
    );
    expect(await client.callTool({ name: "append", arguments: { content: "buy milk" } })).toMatchObject({
      content: [{ text: "Success" }],
    });
    await client.close();
    expect(await readFile(notesFile, "utf8")).toBe("buy milk\n");
    let names: string[] = [];
    for (let i = 0; i < 200 && !names.includes("MCP session: tools/call append"); i++) {
      names = TraceListSchema.parse(await (await fetch(`${recorder.url}/api/traces`)).json()).traces.map((t) => t.name);
      await new Promise((r) => setTimeout(r, 25));
    }
    expect(names).toContain("MCP session: tools/call append");

    const back = await run(process.execPath, [
      "--import",
      TSX,
      HOPSCOPE_CLI,
      "unwrap",
      "--config",
      file,
      "--server",
      "notes",
    ]);
    expect(back.stderr).toMatch(/back to its bytes before wrap/);
    expect(await readFile(file, "utf8")).toBe(original);
    await expect(stat(backupPath(file, "notes"))).rejects.toThrow(/ENOENT/);
  });

  it("keeps a VS Code config's comments and tabs, and gives back its exact bytes", async () => {
    const file = path.join(dir, "mcp.json");
    await writeFile(file, vscode);
    await wrapFile(file, "notes");
    const text = await readFile(file, "utf8");
    expect(text).toContain("// VS Code's .vscode/mcp.json: comments are allowed");
    expect(text).toContain("// ours");
    expect(entry(text, "servers", "notes").args.slice(-7)).toEqual(
      ["wrap", "--", "npm", "run", "-s", "hopscope", "--", "notes-server", "--stdio"].slice(-7),
    );
    await expect(wrapFile(file, "notes")).rejects.toThrow(/was wrapped before/);
    await unwrapFile(file, "notes");
    expect(await readFile(file, "utf8")).toBe(vscode);
  });

  it("restores only the entry when the file changed since wrap", async () => {
    const file = path.join(dir, "cursor-mcp.json");
    const original = claude("/tmp/notes");
    await writeFile(file, original);
    await wrapFile(file, "weather");
    await writeFile(file, (await readFile(file, "utf8")).replace('"Ctrl+Space"', '"Alt+Space"'));
    expect(await unwrapFile(file, "weather")).toMatch(/only that entry was restored/);
    const text = await readFile(file, "utf8");
    expect(entry(text, "mcpServers", "weather")).toEqual({ command: "npx", args: ["-y", "some-weather-server"] });
    expect(text).toBe(original.replace('"Ctrl+Space"', '"Alt+Space"'));
  });

  it("refuses what it cannot wrap, saying why", async () => {
    const file = path.join(dir, "other.json");
    await writeFile(file, vscode);
    await expect(wrapFile(file, "nope")).rejects.toThrow(/no server "nope" in "servers"; it has: notes, remote/);
    await expect(wrapFile(file, "remote")).rejects.toThrow(/is an HTTP server/);
    await expect(unwrapFile(file, "notes")).rejects.toThrow(/was not wrapped/);
    await writeFile(file, "{ not json");
    await expect(wrapFile(file, "notes")).rejects.toThrow(/is not valid JSON/);
    expect(await readFile(file, "utf8")).toBe("{ not json");
  });
});
