/**
 * `npx tsx bench/gc.ts [--chat] [DIR]`: what the recorder's garbage costs, thread by thread. Runs apps/proxy
 * (of this checkout, or of DIR: a before/after made with `git archive <commit> | tar -x -C DIR` and DIR's
 * node_modules linked to this one's) under `node --trace-gc-nvp`, drives the bench's load (16 connections, the
 * MCP-like body on /mcp, or the chat-like one) for 4 s, and prints CPU µs per request by thread (/proc) and, for
 * the three isolates that allocated most, the bytes allocated and promoted per request and the scavenges'
 * pause. Promoted bytes are what the scavenger copies twice; they are what made the recording thread's
 * garbage expensive (docs/recorder-performance.md, item 8).
 */
import { spawn } from "node:child_process";
import { createWriteStream, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "./contenders/index";
import { CHAT_BODY, MCP_BODY, load } from "./measure";
import { threadCpuSeconds } from "./proc";
import { startUpstream } from "./start-upstream";

const chat = process.argv.includes("--chat");
const tree = process.argv.slice(2).find((a) => !a.startsWith("--")) ?? join(import.meta.dirname, "..");
const [path, body] = chat ? ["/api/chat", CHAT_BODY] : ["/mcp", MCP_BODY];

interface IsolateGc {
  scavenges: number;
  pauseMs: number;
  allocated: number;
  promoted: number;
  markCompacts: number;
}

/** Per isolate (the address in `[pid:0x…]`), from --trace-gc-nvp lines (`gc=s` is a scavenge). */
function gcByIsolate(log: string): Map<string, IsolateGc> {
  const by = new Map<string, IsolateGc>();
  for (const line of log.split("\n")) {
    const isolate = /^\[\d+:(0x[0-9a-f]+)\]/.exec(line)?.[1];
    if (!isolate) continue;
    const kv = new Map([...line.matchAll(/(\w[\w.]*)=([^ ]+)/g)].map((m) => [m[1], m[2]]));
    const gc = by.get(isolate) ?? { scavenges: 0, pauseMs: 0, allocated: 0, promoted: 0, markCompacts: 0 };
    if (kv.get("gc") === "s") {
      gc.scavenges++;
      gc.pauseMs += Number(kv.get("pause"));
      gc.allocated += Number(kv.get("allocated"));
      gc.promoted += Number(kv.get("promoted"));
    } else if (kv.has("gc")) gc.markCompacts++;
    by.set(isolate, gc);
  }
  return by;
}

const upstream = await startUpstream();
const dir = mkdtempSync(join(tmpdir(), "hopscope-gc-"));
const [ui, model, mcp, agent] = [await freePort(), await freePort(), await freePort(), await freePort()];
const up = `http://127.0.0.1:${upstream.port}`;
const child = spawn(
  process.execPath,
  ["--trace-gc-nvp", "--import", "tsx", join(tree, "apps", "proxy", "src", "main.ts")],
  {
    cwd: tree,
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
    stdio: ["ignore", "pipe", "pipe"],
  },
);
const logFile = join(dir, "gc.log");
const out = createWriteStream(logFile);
child.stdout.pipe(out);
child.stderr.pipe(out);
try {
  for (let i = 0; ; i++) {
    try {
      await (await fetch(`http://127.0.0.1:${ui}/api/health`)).arrayBuffer();
      break;
    } catch (err) {
      if (i > 200 || child.exitCode !== null)
        throw new Error(`the recorder did not start (${String(err)}); its output: ${logFile}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  const url = `http://127.0.0.1:${chat ? model : mcp}${path}`;
  await load({ url, body, connections: 4, seconds: 1, pid: null }); // past start-up: JIT and pools warm
  const logBefore = readFileSync(logFile, "utf8").length;
  const pid = child.pid as number;
  const before = threadCpuSeconds(pid);
  const r = await load({ url, body, connections: 16, seconds: 4, pid: null });
  const threads = [...threadCpuSeconds(pid)].map(
    ([name, s]) => `${name} ${(((s - (before.get(name) ?? 0)) * 1e6) / r.requests).toFixed(1)}`,
  );
  const per = (bytes: number) => (bytes / r.requests / 1024).toFixed(2);
  process.stdout.write(
    `${tree}, ${path}: ${r.rps.toFixed(0)} req/s; CPU µs per request by thread: ${threads.join(", ")}\n`,
  );
  const isolates = [...gcByIsolate(readFileSync(logFile, "utf8").slice(logBefore))]
    .sort((a, b) => b[1].allocated - a[1].allocated)
    .slice(0, 3);
  for (const [id, g] of isolates) {
    process.stdout.write(
      `  isolate ${id}: ${per(g.allocated)} KiB allocated and ${per(g.promoted)} KiB promoted per request; ${g.scavenges} scavenges (${g.pauseMs.toFixed(0)} ms), ${g.markCompacts} mark-compacts\n`,
    );
  }
} finally {
  child.kill("SIGTERM");
  await new Promise((r) => child.once("exit", r));
  upstream.stop();
  rmSync(dir, { recursive: true, force: true });
}
