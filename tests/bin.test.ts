/**
 * The `hopscope` bin (package.json "bin", the built CLI) as an agent's config runs it: launched from another
 * working directory, by its absolute path (the file itself, through its `#!` line, and as `node <path>`),
 * `wrap` in front of the built notes server over stdio answers `initialize` and the session reaches a real
 * recorder; `wrap --config` writes exactly that command (node and the bin, by absolute path).
 */
import { execFile } from "node:child_process";
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TraceListSchema } from "@hopscope/shared/trace/api";
import { builtFile, ensureBuilt, REPO_ROOT } from "../scripts/build/programs";
import { startRecorder, type TestRecorder } from "./support/recorder";
import { StdioHost } from "./support/stdio-host";

const run = promisify(execFile);
const pkg = JSON.parse(await readFile(path.join(REPO_ROOT, "package.json"), "utf8")) as { bin: { hopscope: string } };
const BIN = path.join(REPO_ROOT, pkg.bin.hopscope);
const INITIALIZE = {
  jsonrpc: "2.0" as const,
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "an-agent", version: "1" } },
};

let dir: string;
let recorder: TestRecorder;
beforeAll(async () => {
  await ensureBuilt(["scripts", "mcp-server"]);
  recorder = await startRecorder();
  dir = recorder.dir;
}, 120_000);
afterAll(() => recorder?.close());

async function sessions(): Promise<string[]> {
  const res = await fetch(`${recorder.url}/api/traces`);
  return TraceListSchema.parse(await res.json()).traces.map((t) => t.name);
}

describe("the hopscope bin", () => {
  it("is the built CLI, an executable file", () => {
    expect(BIN).toBe(builtFile("scripts", "hopscope.ts"));
  });

  for (const [how, launch] of [
    ["the file itself", (args: string[]) => [BIN, ...args]],
    ["node <absolute path>", (args: string[]) => [process.execPath, BIN, ...args]],
  ] as const) {
    it(`wraps a stdio server from another working directory, run as ${how}`, { timeout: 60_000 }, async () => {
      const notesFile = path.join(dir, `notes-${how.length}`);
      await writeFile(notesFile, "buy milk\n");
      const server = [process.execPath, builtFile("mcp-server", "stdio-main.ts")];
      const host = new StdioHost(
        launch(["wrap", "--", ...server]),
        { HOPSCOPE_URL: recorder.url, NOTES_FILE: notesFile },
        dir,
      );
      await host.converse([INITIALIZE, { jsonrpc: "2.0", id: 2, method: "tools/list" }]);
      expect(host.stdout.toString("utf8")).toContain('"serverInfo"');
      expect(host.stdout.toString("utf8")).toContain('"name":"append"');
      const ended = await host.close();
      expect(ended.code).toBe(0);
      let names: string[] = [];
      for (let i = 0; i < 200 && !names.some((n) => n.includes("tools/list")); i++) {
        names = await sessions();
        await new Promise((r) => setTimeout(r, 25));
      }
      expect(names.some((n) => n.includes("tools/list"))).toBe(true);
    });
  }

  it("is what wrap --config writes into a host's config", { timeout: 60_000 }, async () => {
    const file = path.join(dir, "mcp.json");
    await writeFile(file, JSON.stringify({ mcpServers: { notes: { command: "notes-server", args: ["--stdio"] } } }));
    await run(process.execPath, [BIN, "wrap", "--config", file, "--server", "notes"], { cwd: dir });
    const written = JSON.parse(await readFile(file, "utf8")) as {
      mcpServers: { notes: { command: string; args: string[] } };
    };
    expect(written.mcpServers.notes).toEqual({
      command: process.execPath,
      args: [BIN, "wrap", "--", "notes-server", "--stdio"],
    });
  });
});
