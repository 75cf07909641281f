/**
 * Runs one agent CLI for one question against a recorder stack, in a throwaway HOME and cwd, and reports
 * how it ended with what it printed. The whole process group is killed if it outlives `timeoutMs`, so a
 * hung agent fails its test with its output instead of holding the run.
 */
import { spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Agent, type AgentClis } from "./agent-clis";
import { agentLaunch, type AgentLaunch, type AgentTargets } from "./agent-launch";

export interface AgentRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  launch: AgentLaunch;
}

export interface AgentRunOptions extends Omit<AgentTargets, "home" | "cwd"> {
  timeoutMs?: number;
}

export async function runAgent(agent: Agent, clis: AgentClis, opts: AgentRunOptions): Promise<AgentRun> {
  const home = await mkdtemp(join(tmpdir(), `hopscope-${agent}-home-`));
  const cwd = await mkdtemp(join(tmpdir(), `hopscope-${agent}-cwd-`));
  try {
    const launch = await agentLaunch(agent, clis, { ...opts, home, cwd });
    return { ...(await spawnAgent(launch, opts.timeoutMs ?? 180_000)), launch };
  } finally {
    await rm(home, { recursive: true, force: true });
    await rm(cwd, { recursive: true, force: true });
  }
}

function spawnAgent(launch: AgentLaunch, timeoutMs: number): Promise<Omit<AgentRun, "launch">> {
  return new Promise((resolve, reject) => {
    const child = spawn(launch.command, launch.args, {
      cwd: launch.cwd,
      env: launch.env,
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    });
    let stdout = "";
    let stderr = "";
    let timedOut = false;
    child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d));
    child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup(child.pid);
    }, timeoutMs);
    child.on("error", (err) => {
      clearTimeout(timer);
      reject(new Error(`could not start ${launch.command}: ${err.message}`, { cause: err }));
    });
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      // Whatever the agent left running (its MCP servers) goes with it.
      killGroup(child.pid);
      resolve({ code, signal, stdout, stderr, timedOut });
    });
  });
}

function killGroup(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, "SIGKILL");
  } catch {
    // The group is already gone.
  }
}

/** The run in a few lines, for a failing assertion's message. */
export function describeRun(run: AgentRun): string {
  return [
    `exit ${run.code}${run.signal ? ` (${run.signal})` : ""}${run.timedOut ? " after the time limit" : ""}`,
    `stdout: ${run.stdout.slice(-1500)}`,
    `stderr: ${run.stderr.slice(-3000)}`,
  ].join("\n");
}
