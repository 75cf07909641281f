/**
 * The CLI piped into a reader that stops early (`hopscope traces | head -3`, found from outside with
 * `hopscope ask … | head -3`) ends quietly instead of crashing with "write EPIPE" and a stack trace.
 * Run as a user runs it: a child process whose stdout's reading end is closed before it writes.
 */
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("..", import.meta.url));

describe("hopscope with its output cut short", () => {
  it("exits without an EPIPE crash", { timeout: 60_000 }, async () => {
    // The prompt of a request with many tools: more than a pipe holds, so the writes meet the closed end.
    const tools = Array.from({ length: 400 }, (_, i) => ({
      type: "function",
      function: { name: `tool_${i}`, description: "x".repeat(200), parameters: { type: "object", properties: {} } },
    }));
    const body = JSON.stringify({
      model: "qwen2.5:7b",
      messages: [{ role: "user", content: "Add buy milk to my notes" }],
      tools,
    });
    const result = await new Promise<{ code: number | null; stderr: string }>((resolve, reject) => {
      const child = spawn("npx", ["tsx", "scripts/hopscope.ts", "render"], {
        cwd: ROOT,
        stdio: ["pipe", "pipe", "pipe"],
      });
      let stderr = "";
      child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
      // The reader (`head`) has gone: the pipe's reading end is closed before anything is written.
      child.stdout.destroy();
      child.on("error", reject);
      child.on("close", (code) => resolve({ code, stderr }));
      child.stdin.end(body);
    });
    expect(result.stderr).not.toContain("EPIPE");
    expect(result.stderr).not.toContain("Unhandled 'error' event");
    expect(result.code).toBe(0);
  });
});
