/**
 * A crash mid-write leaves the old or the new file, never a torn one: a child process rewrites the
 * file through NotesStore in a loop and is SIGKILLed at random moments; after each kill the file is
 * exactly one of the two contents.
 */
import { spawn } from "node:child_process";
import { mkdtemp, readFile, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const script = fileURLToPath(new URL("./fixtures/rewrite-loop.ts", import.meta.url));
let dir: string;
const A = `${"a".repeat(300_000)}\n`;
const B = `${"b".repeat(3_000_000)}\nsecond line\n`; // several 512 KiB write chunks: a torn write would show

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "mcp-atomic-"));
  await writeFile(join(dir, "a.txt"), A);
  await writeFile(join(dir, "b.txt"), B);
});
afterAll(() => rm(dir, { recursive: true, force: true }));

function runAndKill(notes: string, delayMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", script, notes, join(dir, "a.txt"), join(dir, "b.txt")], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stderr = "";
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.stdout.once("data", () => setTimeout(() => child.kill("SIGKILL"), delayMs));
    child.once("error", reject);
    child.once("exit", (code, signal) =>
      signal === "SIGKILL" ? resolve() : reject(new Error(`child exited ${code} before the kill: ${stderr}`)),
    );
  });
}

describe("atomic writes", () => {
  it("after SIGKILL at random moments the file is always exactly the old or the new content", async () => {
    const notes = join(dir, "db");
    await writeFile(notes, A);
    for (let round = 0; round < 10; round++) {
      await runAndKill(notes, Math.floor(Math.random() * 60));
      const content = await readFile(notes, "utf8");
      expect([A, B]).toContain(content);
    }
    // Leftover temp files from killed writers are separate files; the notes file itself is whole.
    const names = await readdir(dir);
    expect(names.filter((n) => !n.startsWith(".db.") && !["a.txt", "b.txt", "db"].includes(n))).toEqual([]);
  });
});
