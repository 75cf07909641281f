/**
 * `npx tsx bench/taps.ts`: what the taps thread costs per request, side by side with the plain Node
 * pass-through, in one run. The bench's load (16 connections, the MCP-like body on /mcp) against each
 * contender in turn, round by round (A B A B …), medians: requests/s, CPU µs per request of the whole
 * process, and for hopscope of its taps thread (`hs-taps`) and recording thread (`hs-recording`) apart.
 *
 * Flags: --rounds N (3)  --seconds S (4)  --chat (the chat-like body on /api/chat instead)  --base DIR (also run the recorder of another checkout, e.g. one
 * made with `git archive <commit> | tar -x -C DIR` and DIR/node_modules linked to this one's: a before/after
 * in the same run).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "./contenders/index";
import { CHAT_BODY, MCP_BODY, load, median } from "./measure";
import { threadCpuSeconds, treeCpuSeconds } from "./proc";
import { startUpstream } from "./start-upstream";

function flag(name: string, def: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? (process.argv[i + 1] ?? def) : def;
}
const rounds = Number(flag("rounds", "3"));
const seconds = Number(flag("seconds", "4"));
const base = flag("base", "");
const here = join(import.meta.dirname, "..");
const chat = process.argv.includes("--chat");
const [path, body] = chat ? ["/api/chat", CHAT_BODY] : ["/mcp", MCP_BODY];

interface Running {
  port: number;
  child: ChildProcess;
  stop(): Promise<void>;
}

async function ready(url: string, child: ChildProcess): Promise<void> {
  for (let i = 0; i < 300; i++) {
    if (child.exitCode !== null) throw new Error(`${url}: the contender exited with ${child.exitCode}`);
    try {
      await (await fetch(url, { signal: AbortSignal.timeout(1000) })).arrayBuffer();
      return;
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  throw new Error(`${url} did not answer`);
}

function stopper(child: ChildProcess, after = () => {}): () => Promise<void> {
  return () =>
    new Promise((resolve) => {
      const t = setTimeout(() => child.kill("SIGKILL"), 30_000);
      child.once("exit", () => {
        clearTimeout(t);
        after();
        resolve();
      });
      child.kill("SIGTERM");
    });
}

async function passThrough(upstream: number): Promise<Running> {
  const port = await freePort();
  const child = spawn(
    process.execPath,
    ["--import", "tsx", join(here, "bench", "contenders", "passthrough.ts"), String(port), String(upstream)],
    { cwd: here, stdio: ["ignore", "ignore", "inherit"] },
  );
  await ready(`http://127.0.0.1:${port}/health`, child);
  return { port, child, stop: stopper(child) };
}

async function recorder(root: string, upstream: number): Promise<Running> {
  const dir = mkdtempSync(join(tmpdir(), "hopscope-taps-bench-"));
  const [ui, model, mcp, agent] = [await freePort(), await freePort(), await freePort(), await freePort()];
  const up = `http://127.0.0.1:${upstream}`;
  const child = spawn(process.execPath, ["--import", "tsx", join(root, "apps", "proxy", "src", "main.ts")], {
    cwd: root,
    env: {
      ...process.env,
      HOST: "127.0.0.1",
      UI_PORT: String(ui),
      MODEL_TAP_PORT: String(model),
      MCP_TAP_PORT: String(mcp),
      AGENT_TAP_PORT: String(agent),
      MODEL_UPSTREAM: up,
      MCP_UPSTREAM: up,
      AGENT_UPSTREAM: up,
      DB_FILE: join(dir, "bench.sqlite"),
      TRACES_DIR: join(dir, "traces"),
      MAX_TRACES: "0",
    },
    stdio: ["ignore", "ignore", "ignore"],
  });
  await ready(`http://127.0.0.1:${ui}/api/health`, child);
  return { port: chat ? model : mcp, child, stop: stopper(child, () => rmSync(dir, { recursive: true, force: true })) };
}

interface Sample {
  rps: number;
  cpu: number;
  threads: Record<string, number>;
  /** Of `threads`, the kernel's part (system time): socket reads and writes, SQLite's file writes, wake-ups. */
  system: Record<string, number>;
}

async function measure(start: () => Promise<Running>): Promise<Sample> {
  const r = await start();
  try {
    const url = `http://127.0.0.1:${r.port}${path}`;
    await load({ url, body, connections: 4, seconds: 1, pid: null });
    const pid = r.child.pid as number;
    const before = threadCpuSeconds(pid);
    const systemBefore = threadCpuSeconds(pid, "system");
    const cpuBefore = treeCpuSeconds(pid);
    const l = await load({ url, body, connections: 16, seconds, pid: null });
    const cpu = ((treeCpuSeconds(pid) - cpuBefore) * 1e6) / l.requests;
    const threads: Record<string, number> = {};
    for (const [name, s] of threadCpuSeconds(pid)) threads[name] = ((s - (before.get(name) ?? 0)) * 1e6) / l.requests;
    const system: Record<string, number> = {};
    for (const [name, s] of threadCpuSeconds(pid, "system"))
      system[name] = ((s - (systemBefore.get(name) ?? 0)) * 1e6) / l.requests;
    if (l.errors > 0) process.stderr.write(`  ${l.errors} errors\n`);
    return { rps: l.rps, cpu, threads, system };
  } finally {
    await r.stop();
  }
}

const upstream = await startUpstream();
const contenders: [string, () => Promise<Running>][] = [
  ["node pass-through", () => passThrough(upstream.port)],
  ["hopscope (this tree)", () => recorder(here, upstream.port)],
];
if (base) contenders.push([`hopscope (${base})`, () => recorder(base, upstream.port)]);
const samples = new Map<string, Sample[]>(contenders.map(([n]) => [n, []]));
const load0 = loadavg()[0];
for (let i = 0; i < rounds; i++) {
  for (const [name, start] of contenders) {
    process.stderr.write(`round ${i + 1}/${rounds}: ${name}\n`);
    samples.get(name)?.push(await measure(start));
  }
}
upstream.stop();
const ref = median((samples.get("node pass-through") ?? []).map((s) => s.rps));
const refCpu = median((samples.get("node pass-through") ?? []).map((s) => s.cpu));
console.log(
  `load average ${load0?.toFixed(1)} → ${loadavg()[0]?.toFixed(1)}; ${rounds} rounds of ${seconds} s, 16 connections, ${chat ? "chat-like body on /api/chat" : "MCP-like body on /mcp"}`,
);
console.log(
  "| contender | req/s | × node | CPU µs/req (process) | × node | of it, kernel | hs-taps µs/req (kernel) | hs-recording µs/req (kernel) | other threads µs/req |",
);
console.log("|---|---|---|---|---|---|---|---|---|");
for (const [name, list] of samples) {
  const rps = median(list.map((s) => s.rps));
  const cpu = median(list.map((s) => s.cpu));
  const t = (n: string) =>
    list.some((s) => s.threads[n] !== undefined) ? median(list.map((s) => s.threads[n] ?? 0)).toFixed(1) : "–";
  const k = (n: string) =>
    list.some((s) => s.system[n] !== undefined) ? ` (${median(list.map((s) => s.system[n] ?? 0)).toFixed(1)})` : "";
  const kernel = median(list.map((s) => Object.values(s.system).reduce((a, b) => a + b, 0)));
  const names = [...new Set(list.flatMap((s) => Object.keys(s.threads)))].filter(
    (n) => n !== "hs-taps" && n !== "hs-recording",
  );
  const others = names.map((n) => `${n} ${t(n)}`).join(", ");
  console.log(
    `| ${name} | ${rps.toFixed(0)} | ${(rps / ref).toFixed(2)}× | ${cpu.toFixed(1)} | ${(cpu / refCpu).toFixed(2)}× | ${kernel.toFixed(1)} | ${t("hs-taps")}${k("hs-taps")} | ${t("hs-recording")}${k("hs-recording")} | ${others} |`,
  );
}
process.exit(0);
