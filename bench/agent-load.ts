/**
 * The agent-sized load: a coding agent's recorded model request (Claude Code's ~90 KB `/v1/messages`, and
 * the other agents' largest) sent through the model tap by 8 connections, a canned SSE answer upstream,
 * side by side with the plain Node pass-through, rounds alternating. For hopscope: how many answered
 * exchanges were stored (target: all), what /api/health said, and CPU per exchange counted until the
 * recorder has committed everything the load sent (so work left queued after the load is not missed).
 *
 *   npx tsx bench/agent-load.ts [--rounds N (3)] [--seconds S (10)] [--agents claude-code,codex]
 */
import Database from "better-sqlite3";
import { agentRequest, AGENT_LOADS, type AgentRequest } from "./agent-answers";
import { nodePassthrough, nodeStoring, startRecorder, type Contender, type RecorderChild } from "./contenders/index";
import { load, median } from "./measure";
import { threadCpuSeconds, treeCpuSeconds } from "./proc";
import { startUpstream } from "./start-upstream";
import type { AgentLoadBench, AgentLoadCase, AgentLoadRecorder, AgentLoadSide } from "./results";

const CONNECTIONS = 8;

async function drive(port: number, req: AgentRequest, seconds: number, connections: number) {
  const url = `http://127.0.0.1:${port}${req.path}`;
  return load({ url, body: req.body, headers: req.headers, connections, seconds, pid: null });
}

async function passThroughRound(
  contender: Contender,
  upstream: number,
  req: AgentRequest,
  seconds: number,
): Promise<AgentLoadSide> {
  const s = await contender.start(upstream);
  try {
    await drive(s.modelPort, req, 1, 4);
    const pid = s.pid as number;
    const before = treeCpuSeconds(pid);
    const l = await drive(s.modelPort, req, seconds, CONNECTIONS);
    return { rps: l.rps, cpuMicros: ((treeCpuSeconds(pid) - before) * 1e6) / l.requests, answered: l.requests };
  } finally {
    await s.stop();
  }
}

/** A read the recorder answers only after every exchange sent before it is committed (link/threads.ts). */
async function drained(r: RecorderChild): Promise<void> {
  const res = await fetch(`http://127.0.0.1:${r.uiPort}/api/traces?limit=1`, { signal: AbortSignal.timeout(120_000) });
  await res.arrayBuffer();
}

async function health(r: RecorderChild): Promise<{ ok: boolean; notStored: number }> {
  const h = (await (await fetch(`http://127.0.0.1:${r.uiPort}/api/health`)).json()) as {
    ok: boolean;
    storage?: { ok: boolean; notStored: number };
  };
  return { ok: h.ok && (h.storage?.ok ?? true), notStored: h.storage?.notStored ?? 0 };
}

function storedComplete(dbFile: string): number {
  const db = new Database(dbFile, { readonly: true, fileMustExist: true });
  try {
    return (db.prepare("SELECT COUNT(*) AS n FROM exchanges WHERE state = 'complete'").get() as { n: number }).n;
  } finally {
    db.close();
  }
}

async function recorderRound(upstream: number, req: AgentRequest, seconds: number): Promise<AgentLoadRecorder> {
  const r = await startRecorder(upstream);
  const pid = r.pid as number;
  try {
    const warm = await drive(r.modelPort, req, 1, 4);
    await drained(r);
    const storedBefore = storedComplete(r.dbFile);
    const before = treeCpuSeconds(pid);
    const threadsBefore = threadCpuSeconds(pid);
    const l = await drive(r.modelPort, req, seconds, CONNECTIONS);
    const loadEnd = performance.now();
    await drained(r);
    const drainMs = performance.now() - loadEnd;
    const cpu = ((treeCpuSeconds(pid) - before) * 1e6) / l.requests;
    const threadsAfter = threadCpuSeconds(pid);
    const thread = (n: string) => (((threadsAfter.get(n) ?? 0) - (threadsBefore.get(n) ?? 0)) * 1e6) / l.requests;
    const storedDuring = storedComplete(r.dbFile) - storedBefore;
    const h = await health(r);
    await r.stop();
    return {
      rps: l.rps,
      cpuMicros: cpu,
      answered: warm.requests + l.requests,
      tapsMicros: thread("hs-taps"),
      recordingMicros: thread("hs-recording"),
      recordingPerStoredMicros: (thread("hs-recording") * l.requests) / Math.max(1, storedDuring),
      stored: storedComplete(r.dbFile),
      healthOk: h.ok,
      notStored: h.notStored,
      drainMs,
    };
  } finally {
    await r.stop();
    r.cleanup();
  }
}

function medianOf<T extends object>(xs: T[], key: keyof T): number {
  return median(xs.map((x) => x[key] as number));
}

export async function runAgentLoadBench(
  log: (s: string) => void,
  opts: { rounds: number; seconds: number; agents?: readonly string[] },
): Promise<AgentLoadBench> {
  const upstream = await startUpstream();
  const cases: AgentLoadCase[] = [];
  try {
    for (const { agent, file } of AGENT_LOADS) {
      if (opts.agents && !opts.agents.includes(agent)) continue;
      const req = agentRequest(agent, file);
      const nodes: AgentLoadSide[] = [];
      const floors: AgentLoadSide[] = [];
      const hops: AgentLoadRecorder[] = [];
      for (let i = 0; i < opts.rounds; i++) {
        log(`bench: agent load ${agent}, round ${i + 1}/${opts.rounds}`);
        nodes.push(await passThroughRound(nodePassthrough, upstream.port, req, opts.seconds));
        floors.push(await passThroughRound(nodeStoring, upstream.port, req, opts.seconds));
        hops.push(await recorderRound(upstream.port, req, opts.seconds));
      }
      const sum = (k: "answered" | "stored" | "notStored") => hops.reduce((n, h) => n + h[k], 0);
      cases.push({
        agent,
        path: req.path,
        bodyBytes: Buffer.byteLength(req.body),
        node: {
          rps: medianOf(nodes, "rps"),
          cpuMicros: medianOf(nodes, "cpuMicros"),
          answered: nodes.reduce((n, x) => n + x.answered, 0),
        },
        floor: {
          rps: medianOf(floors, "rps"),
          cpuMicros: medianOf(floors, "cpuMicros"),
          answered: floors.reduce((n, x) => n + x.answered, 0),
        },
        hopscope: {
          rps: medianOf(hops, "rps"),
          cpuMicros: medianOf(hops, "cpuMicros"),
          tapsMicros: medianOf(hops, "tapsMicros"),
          recordingMicros: medianOf(hops, "recordingMicros"),
          recordingPerStoredMicros: medianOf(hops, "recordingPerStoredMicros"),
          drainMs: medianOf(hops, "drainMs"),
          answered: sum("answered"),
          stored: sum("stored"),
          notStored: sum("notStored"),
          healthOk: hops.every((h) => h.healthOk),
        },
      });
    }
  } finally {
    upstream.stop();
  }
  return { rounds: opts.rounds, seconds: opts.seconds, connections: CONNECTIONS, cases };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const arg = (name: string, def: string) => {
    const i = process.argv.indexOf(`--${name}`);
    return i >= 0 ? (process.argv[i + 1] ?? def) : def;
  };
  const { agentLoadSection } = await import("./agent-load-report");
  const b = await runAgentLoadBench((s) => process.stderr.write(`${s}\n`), {
    rounds: Number(arg("rounds", "3")),
    seconds: Number(arg("seconds", "10")),
    agents: arg("agents", "claude-code").split(","),
  });
  process.stdout.write(`${agentLoadSection(b).join("\n")}\n`);
  process.exit(0);
}
