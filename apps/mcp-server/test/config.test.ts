/** Config from env, and start() creating a missing notes file with its folder. */
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { REPO_ROOT, loadConfig } from "../src/config";
import { start } from "../src/server";

describe("loadConfig", () => {
  it("defaults: 127.0.0.1:8080, data/db at the repository root (not the cwd), 1 MiB limits", async () => {
    const c = loadConfig({});
    expect(c).toEqual({
      port: 8080,
      host: "127.0.0.1",
      allowedHosts: [],
      notesFile: join(REPO_ROOT, "data", "db"),
      maxBodyBytes: 1048576,
      maxNotesBytes: 1048576,
    });
    await expect(readFile(join(REPO_ROOT, "package.json"), "utf8")).resolves.toMatch(/"workspaces"/);
  });

  it("a relative NOTES_FILE resolves against the repository root; an absolute one is kept", () => {
    expect(loadConfig({ NOTES_FILE: "tmp/notes.txt" }).notesFile).toBe(join(REPO_ROOT, "tmp", "notes.txt"));
    expect(loadConfig({ NOTES_FILE: "/var/notes" }).notesFile).toBe("/var/notes");
  });

  it("a bad PORT is refused with a message naming it", () => {
    expect(() => loadConfig({ PORT: "eighty" })).toThrow(/PORT/);
  });
});

describe("start", () => {
  it("creates the notes file, empty, with its folder; keeps an existing one", async () => {
    const dir = await mkdtemp(join(tmpdir(), "mcp-config-"));
    const notesFile = join(dir, "deep", "folder", "db");
    const limits = { maxBodyBytes: 1024, maxNotesBytes: 1024 };
    let running = await start({ port: 0, host: "127.0.0.1", notesFile, ...limits });
    expect(await readFile(notesFile, "utf8")).toBe("");
    expect(running.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    await running.close();
    await writeFile(notesFile, "kept\n");
    running = await start({ port: 0, host: "127.0.0.1", notesFile, ...limits });
    expect(await readFile(notesFile, "utf8")).toBe("kept\n");
    await running.close();
    await rm(dir, { recursive: true, force: true });
  });
});
