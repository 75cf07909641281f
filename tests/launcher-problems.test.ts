/**
 * `npm start` shows an app's warnings and errors while it runs (before, a child's output was shown only
 * when it died, so a running recorder that could not store a change said nothing): the line formatting,
 * and a real child process whose warning arrives in two reads.
 */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { problemLine } from "../scripts/launcher/problem-line";
import { startService, stopAll } from "../scripts/launcher/services";

describe("problemLine", () => {
  it("shows warnings and errors with their fields; not info, not text that is not a log line", () => {
    const err = JSON.stringify({
      level: "error",
      time: "2026-12-01T12:00:00Z",
      app: "recorder",
      msg: "could not store a notes change",
      err: "UNIQUE constraint failed: notes_changes.id",
      change: 4,
    });
    expect(problemLine("recorder", err)).toBe(
      "  ✗ recorder: could not store a notes change (err: UNIQUE constraint failed: notes_changes.id, change: 4)",
    );
    const warn = JSON.stringify({
      level: "warn",
      app: "recorder",
      msg: "upstream failed",
      tap: "model",
      err: { message: "connect ECONNREFUSED", stack: "…" },
    });
    expect(problemLine("recorder", warn)).toBe("  ! recorder: upstream failed (tap: model, err: connect ECONNREFUSED)");
    expect(problemLine("recorder", JSON.stringify({ level: "info", msg: "listening" }))).toBeNull();
    expect(problemLine("recorder", "A PostCSS plugin did not pass the `from` option")).toBeNull();
    expect(problemLine("recorder", "42")).toBeNull();
  });

  it("cuts a long field", () => {
    const line = problemLine("host", JSON.stringify({ level: "warn", msg: "m", body: "x".repeat(1000) }));
    expect(line?.length).toBeLessThan(260);
    expect(line).toContain("…");
  });
});

describe("startService", () => {
  const roots: string[] = [];
  afterAll(async () => {
    for (const r of roots) await rm(r, { recursive: true, force: true });
  });

  it(
    "reports a running child's warning as it happens, even when it arrives in two reads",
    { timeout: 30_000 },
    async () => {
      const root = await mkdtemp(join(tmpdir(), "hopscope-launcher-"));
      roots.push(root);
      // An app as `npm start` runs it: its built entry, apps/<app>/dist/main.js, under plain node.
      await mkdir(join(root, "apps", "noisy", "dist"), { recursive: true });
      const warning = JSON.stringify({ level: "warn", app: "noisy", msg: "the disk is full", file: "data/db" });
      const half = Math.floor(warning.length / 2);
      await writeFile(
        join(root, "apps", "noisy", "dist", "main.js"),
        [
          `process.stderr.write(${JSON.stringify(JSON.stringify({ level: "info", msg: "listening" }) + "\n")});`,
          `process.stderr.write(${JSON.stringify(warning.slice(0, half))});`,
          `setTimeout(() => process.stderr.write(${JSON.stringify(warning.slice(half) + "\n")}), 200);`,
          `setInterval(() => {}, 1000);`,
        ].join("\n"),
      );
      const problems: string[] = [];
      const service = startService(
        root,
        { name: "noisy", app: "noisy", env: {}, readyUrl: "http://127.0.0.1:9/", shows: "" },
        false,
        (l) => problems.push(l),
      );
      try {
        const deadline = Date.now() + 20_000;
        while (problems.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
        expect(problems).toEqual(["  ! noisy: the disk is full (file: data/db)"]);
        expect(service.child.exitCode).toBeNull(); // shown while it runs, not when it dies
        expect(service.output).toContain(warning);
      } finally {
        await stopAll([service]);
      }
    },
  );
});
