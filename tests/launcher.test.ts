/**
 * The front door as a learner uses it: the real `npm start` from the repo root (every app its own
 * process, the stand-in model, the UI built when it is stale — hence the generous timeout), on free
 * ports given through the launcher's env vars, with the notes file and the database in a temp dir and
 * OLLAMA_URL pointing at a closed port so no real Ollama is picked. It asks through the CLI and over
 * plain HTTP, watches the hop lines, then presses Ctrl-C (SIGINT to the whole process group, as a
 * terminal does) and checks every process is gone and every port is free again.
 */
import { spawn } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AgentResponseSchema } from "@hopscope/shared/agent/schemas";
import { groupGone, launch, launcherEnv, launchUntilOpen, PORT_NAMES, type Launched } from "./support/launcher";

const root = join(import.meta.dirname, "..");

function canBind(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = createServer();
    s.once("error", () => resolve(false));
    s.listen(port, "127.0.0.1", () => s.close(() => resolve(true)));
  });
}

async function until(what: string, check: () => Promise<boolean> | boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

function runCli(
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn("npm", ["run", "-s", "hopscope", "--", ...args], {
      cwd: root,
      env: { ...process.env, ...env },
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString("utf8")));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString("utf8")));
    child.once("error", reject);
    child.once("exit", (code) => resolve({ code, stdout, stderr }));
  });
}

describe("npm start", () => {
  let dir: string;
  let launched: Launched | undefined;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "hopscope-launcher-"));
  });
  afterAll(async () => {
    // Only if a test failed half-way: the group is the launcher and the apps it started.
    if (launched?.child.pid && !groupGone(launched.child.pid)) process.kill(-launched.child.pid, "SIGKILL");
    await rm(dir, { recursive: true, force: true });
  });

  it(
    "starts every service, records a question as numbered hops, and stops cleanly on Ctrl-C",
    { timeout: 240_000 },
    async () => {
      const started = await launchUntilOpen(dir);
      const { env, ports, open } = started;
      launched = started.launched;
      expect(open).toContain(`Open http://127.0.0.1:${ports.UI_PORT}/`);

      const serviceLines = launched.stdout.filter((l) => l.startsWith("  ✓ "));
      expect(serviceLines).toHaveLength(4);
      const line = (prefix: string) => serviceLines.find((l) => l.startsWith(`  ✓ ${prefix}`)) ?? "";
      expect(line("MCP server")).toContain(`:${ports.MCP_SERVER_PORT}/mcp`);
      expect(line("MCP server")).toContain(env.NOTES_FILE);
      expect(line("model")).toContain(`:${ports.SIM_PORT}`);
      expect(line("model")).toContain("stand-in");
      expect(line("recorder")).toContain(`model :${ports.MODEL_TAP_PORT}`);
      expect(line("recorder")).toContain(`mcp :${ports.MCP_TAP_PORT}`);
      expect(line("recorder")).toContain(`agent :${ports.AGENT_TAP_PORT}`);
      expect(line("agent host")).toContain(`:${ports.AGENT_HOST_PORT}/agent`);

      // The UI is served, and the health API names the taps it was given.
      const ui = await fetch(`http://127.0.0.1:${ports.UI_PORT}/`);
      expect(ui.status).toBe(200);
      expect(await ui.text()).toMatch(/<html/i);

      // As the README says: the CLI, pointed at the agent tap.
      const agentTap = `http://127.0.0.1:${ports.AGENT_TAP_PORT}`;
      const cli = await runCli(["ask", "Add buy milk to my notes"], { HOPSCOPE_AGENT_URL: agentTap });
      expect(cli.code, cli.stderr).toBe(0);
      expect(cli.stdout).toContain("buy milk");
      expect(cli.stdout).toMatch(/1\. append \{"content":"buy milk"\}/);

      // And over plain HTTP, as curl would.
      const res = await fetch(`${agentTap}/agent`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ message: "What's in my notes?" }),
      });
      expect(res.status).toBe(200);
      const answer = AgentResponseSchema.parse(await res.json());
      expect(answer.toolCalls.map((c) => c.name)).toEqual(["read"]);
      expect(answer.reply).toContain("buy milk");

      expect(await readFile(env.NOTES_FILE!, "utf8")).toMatch(/^buy milk$/m);

      // One line per hop, numbered like the timeline (the article's eight hops for the first question).
      await launched.waitForLine(/^\s*1–8\s+you\s+→ host\s+POST \/agent\s+"Add buy milk to my notes"/, 20_000);
      await launched.waitForLine(/^\s*1–8\s+you\s+→ host\s+POST \/agent\s+"What's in my notes\?"/, 20_000);
      const hops = launched.stdout.filter((l) => /^\s*\d+(–\d+)?\s+(you|host)\s+→/.test(l));
      expect(hops.filter((l) => /^\s*2\s+host → mcp\s+POST \/mcp\s+tools\/list/.test(l))).toHaveLength(2);
      expect(
        hops.filter((l) => /^\s*3–4\s+host → model\s+POST \/api\/chat\s.*tool_calls: append/.test(l)),
      ).toHaveLength(1);
      expect(hops.filter((l) => /^\s*5\s+host → mcp\s+POST \/mcp\s+tools\/call append/.test(l))).toHaveLength(1);
      expect(hops.filter((l) => /^\s*3–4\s+host → model\s+POST \/api\/chat\s.*tool_calls: read/.test(l))).toHaveLength(
        1,
      );
      expect(hops.filter((l) => /^\s*6–7\s+host → model\s+POST \/api\/chat/.test(l))).toHaveLength(2);

      // Ctrl-C: SIGINT to the foreground process group.
      const pgid = launched.child.pid!;
      process.kill(-pgid, "SIGINT");
      const exit = await Promise.race([
        launched.exited,
        new Promise<never>((_, reject) =>
          setTimeout(
            () => reject(new Error(`npm start did not exit within 20 s of SIGINT:\n${launched!.stdout.join("\n")}`)),
            20_000,
          ),
        ),
      ]);
      expect(exit.code === 0 || exit.signal === "SIGINT", JSON.stringify(exit)).toBe(true);
      expect(launched.stdout.join("\n")).toContain("stopping");
      await until("every process of npm start has exited", () => groupGone(pgid), 10_000);
      for (const name of PORT_NAMES)
        expect(await canBind(ports[name]), `${name} ${ports[name]} is free again`).toBe(true);
    },
  );

  it(
    "refuses a port already in use: exit code 1, naming the port and the env var that moves it",
    { timeout: 60_000 },
    async () => {
      const { env, ports } = await launcherEnv(dir);
      const blocker: Server = createServer();
      await new Promise<void>((resolve, reject) => {
        blocker.once("error", reject);
        blocker.listen(ports.UI_PORT, "127.0.0.1", resolve);
      });
      try {
        const run = launch(env);
        const exit = await run.exited;
        expect(exit.code).toBe(1);
        const err = run.stderr.join("\n");
        expect(err).toContain(`port ${ports.UI_PORT}`);
        expect(err).toContain("UI_PORT=");
        expect(err).toContain("already in use");
        // Nothing was started: the other ports are still free.
        for (const name of PORT_NAMES.filter((n) => n !== "UI_PORT"))
          expect(await canBind(ports[name]), name).toBe(true);
        expect(run.stdout.some((l) => l.startsWith("  ✓ "))).toBe(false);
      } finally {
        await new Promise<void>((resolve) => blocker.close(() => resolve()));
      }
    },
  );
});
