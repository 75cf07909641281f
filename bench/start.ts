/**
 * How long hopscope takes to start, beside `node -e ''` (the floor: a Node process that does nothing):
 * - `npm start` until it prints "Open http://…", warm (everything built) and first (a fresh copy of the
 *   sources with nothing built: the apps, the CLI and the UI are built on the way);
 * - `hopscope wrap` in front of a stdio MCP server: from spawn to the server's answer to `initialize`,
 *   bare and wrapped (the bin, and `npm run -s hopscope`), alternating run by run.
 * Every figure of one run is measured on the same box in the same minutes, so ratios compare like with like.
 */
import { spawn } from "node:child_process";
import { cp, mkdtemp, rm, symlink } from "node:fs/promises";
import { createServer, type AddressInfo } from "node:net";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { median } from "./measure";
import { PORT_VARS } from "../scripts/launcher/config";
import { builtFile, ensureBuilt } from "../scripts/build/programs";

const ROOT = join(import.meta.dirname, "..");

export interface StartBench {
  floorMs: number;
  warm: { ms: number; runs: number };
  first: { ms: number } | null;
  wrap: { bareMs: number; nodeSpawnMs: number; binMs: number; npmRunMs: number; runs: number; server: string };
  /** 1-minute load average when the part started and ended: other work on the box inflates every time. */
  loadAverage: { start: number; end: number };
}

/** The least a Node wrapper can add: a Node that spawns the server with its own stdio, and nothing else. */
const NODE_SPAWN = `require("node:child_process").spawn(process.argv[1], process.argv.slice(2), { stdio: "inherit" })`;

async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((resolve) => s.listen(0, "127.0.0.1", resolve));
  const { port } = s.address() as AddressInfo;
  await new Promise((resolve) => s.close(resolve));
  return port;
}

/** Milliseconds from spawn until `done` says so for a line of its output (or the process exits). */
function timeUntil(
  command: string[],
  opts: { cwd?: string; env?: Record<string, string>; input?: string; done: (line: string) => boolean },
): Promise<{ ms: number; pid: number }> {
  const [program, ...args] = command;
  const t0 = performance.now();
  const child = spawn(program as string, args, {
    cwd: opts.cwd ?? ROOT,
    env: { ...process.env, ...opts.env },
    detached: true,
    stdio: ["pipe", "pipe", "pipe"],
  });
  if (opts.input !== undefined) child.stdin.write(opts.input);
  return new Promise((resolve, reject) => {
    let rest = "";
    const stderr: string[] = [];
    child.stderr.on("data", (d: Buffer) => stderr.push(d.toString("utf8")));
    child.stdout.on("data", (d: Buffer) => {
      const lines = (rest + d.toString("utf8")).split("\n");
      rest = lines.pop() ?? "";
      if (lines.some(opts.done) || opts.done(rest)) resolve({ ms: performance.now() - t0, pid: child.pid as number });
    });
    child.once("exit", (code) => {
      if (opts.done("")) resolve({ ms: performance.now() - t0, pid: child.pid as number });
      else reject(new Error(`${command.join(" ")} exited (${code}) before it was ready:\n${stderr.join("")}`));
    });
  });
}

/** Ends a process group we started and waits until none of it is left. */
async function stopGroup(pid: number): Promise<void> {
  const alive = () => {
    try {
      process.kill(-pid, 0);
      return true;
    } catch {
      return false;
    }
  };
  if (alive()) process.kill(-pid, "SIGINT");
  for (let i = 0; i < 100 && alive(); i++) await new Promise((r) => setTimeout(r, 100));
  if (alive()) process.kill(-pid, "SIGKILL");
}

async function launcherEnv(dir: string): Promise<Record<string, string>> {
  const env: Record<string, string> = {
    HOPSCOPE_MODEL: "sim",
    HOST: "127.0.0.1",
    OLLAMA_URL: `http://127.0.0.1:${await freePort()}`,
    NOTES_FILE: join(dir, "db"),
    DB_FILE: join(dir, "hopscope.sqlite"),
  };
  for (const name of Object.keys(PORT_VARS)) env[name] = String(await freePort());
  return env;
}

/** `npm start` in `root` until "Open http://", then Ctrl-C. */
async function startOnce(root: string, dir: string): Promise<number> {
  const run = await timeUntil(["npm", "start", "--", "--quiet"], {
    cwd: root,
    env: await launcherEnv(dir),
    done: (l) => l.includes("Open http://"),
  });
  await stopGroup(run.pid);
  return run.ms;
}

/** A copy of the sources with nothing built (node_modules linked): what a first `npm start` meets. */
async function freshCopy(dir: string): Promise<string> {
  const copy = join(dir, "checkout");
  const skip = /(^|\/)(node_modules|dist|data|traces|\.git)(\/|$)/;
  for (const part of [
    "package.json",
    "package-lock.json",
    "apps",
    "shared",
    "nodekit",
    "scripts",
    "tsconfig.json",
    "tsconfig.base.json",
  ])
    await cp(join(ROOT, part), join(copy, part), {
      recursive: true,
      filter: (src) => !skip.test(src.slice(ROOT.length)),
    });
  await symlink(join(ROOT, "node_modules"), join(copy, "node_modules"));
  return copy;
}

const INITIALIZE = `${JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "bench", version: "1" } },
})}\n`;

/** Spawn → the server's answer to `initialize` on stdout, then its stdin is closed and it ends. */
async function initializeMs(command: string[], env: Record<string, string>): Promise<number> {
  const run = await timeUntil(command, { env, input: INITIALIZE, done: (l) => l.includes('"id":1') });
  await stopGroup(run.pid);
  return run.ms;
}

async function wrapBench(rounds: number, dir: string): Promise<StartBench["wrap"]> {
  const server = [process.execPath, builtFile("mcp-server", "stdio-main.ts")];
  // No recorder listens there: wrap records nothing and says so once; the server's start is what is timed.
  const env = { NOTES_FILE: join(dir, "wrap-db"), HOPSCOPE_URL: `http://127.0.0.1:${await freePort()}` };
  const contenders = {
    bare: server,
    nodeSpawn: [process.execPath, "-e", NODE_SPAWN, ...server],
    bin: [process.execPath, builtFile("scripts", "hopscope.ts"), "wrap", "--", ...server],
    npmRun: ["npm", "run", "-s", "--prefix", ROOT, "hopscope", "--", "wrap", "--", ...server],
  };
  const ms: Record<keyof typeof contenders, number[]> = { bare: [], nodeSpawn: [], bin: [], npmRun: [] };
  for (let r = 0; r < rounds; r++)
    for (const [name, command] of Object.entries(contenders))
      ms[name as keyof typeof contenders].push(await initializeMs(command, env));
  return {
    bareMs: median(ms.bare),
    nodeSpawnMs: median(ms.nodeSpawn),
    binMs: median(ms.bin),
    npmRunMs: median(ms.npmRun),
    runs: rounds,
    server: "the notes server over stdio (node apps/mcp-server/dist/stdio-main.js)",
  };
}

export async function runStartBench(log: (s: string) => void, rounds: number): Promise<StartBench> {
  const dir = await mkdtemp(join(tmpdir(), "hopscope-bench-start-"));
  const loadStart = loadavg()[0] ?? Number.NaN;
  try {
    await ensureBuilt();
    const floor: number[] = [];
    const warm: number[] = [];
    for (let r = 0; r < rounds; r++) {
      log(`bench: start: round ${r + 1}/${rounds}`);
      floor.push((await timeUntil([process.execPath, "-e", ""], { done: (l) => l === "" })).ms);
      warm.push(await startOnce(ROOT, dir));
    }
    log("bench: start: a first start (nothing built)");
    let first: StartBench["first"] = null;
    try {
      first = { ms: await startOnce(await freshCopy(dir), dir) };
    } catch (err) {
      log(`bench: start: the first start failed: ${(err as Error).message.split("\n")[0]}`);
    }
    log("bench: start: hopscope wrap against the bare server");
    const wrap = await wrapBench(Math.max(5, rounds * 3), dir);
    const loadAverage = { start: loadStart, end: loadavg()[0] ?? Number.NaN };
    return { floorMs: median(floor), warm: { ms: median(warm), runs: rounds }, first, wrap, loadAverage };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
