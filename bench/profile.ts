/**
 * Where the recorder's CPU goes under load: starts apps/proxy (main.ts) with `--cpu-prof`, drives one tap
 * with autocannon (16 connections), stops it (the profile is written at exit) and summarises the profile:
 * self time by function, and inclusive time of the recorder's steps with their main callers.
 *
 * In `npm run bench` (unless --no-profile) the summary goes into RESULTS.md. Alone:
 *   npx tsx bench/profile.ts [seconds=8] [/mcp|/api/chat]
 * prints it and keeps the .cpuprofile (path printed) for Chrome DevTools' Performance panel.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startRecorder } from "./contenders/index";
import { CHAT_BODY, MCP_BODY, load } from "./measure";
import type { ProfileBench, ProfileStep } from "./results";
import { startUpstream } from "./start-upstream";
import { threadCpuSeconds } from "./proc";

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

/** Drops the samples taken before the last `windowMs` of the profile (start-up: module loading, JIT). */
function lastWindow(p: CpuProfile, windowMs: number): CpuProfile {
  const cut = p.endTime - windowMs * 1000;
  let t = p.startTime;
  const samples: number[] = [];
  const timeDeltas: number[] = [];
  p.samples.forEach((id, i) => {
    t += p.timeDeltas[i] ?? 0;
    if (t >= cut) {
      samples.push(id);
      timeDeltas.push(p.timeDeltas[i] ?? 0);
    }
  });
  return { ...p, samples, timeDeltas };
}

/** Recorder functions (apps/proxy, shared/trace) and runtime work worth seeing inclusively. */
const STEPS = [
  "clientBytes",
  "requestHead",
  "upstreamBytes",
  "responseHead",
  "execute",
  "begin",
  "requestEnded",
  "responseChunk",
  "finish",
  "send",
  "span",
  "flush",
  "postMessage",
  "announced",
  "receive",
  "publish",
  "flushHeaders",
  "writev",
  "(garbage collector)",
];

/** The recording thread's steps: the recorder's, the store's, and what crossing threads costs. */
const RECORDING_STEPS = [
  "handleBatch",
  "handle",
  "assignTrace",
  "finish",
  "classify",
  "tryParseJson",
  "flush",
  "exchangeParams",
  "traceParams",
  "postMessage",
  "(garbage collector)",
];

export function summariseProfile(
  profile: CpuProfile,
  steps: readonly string[] = STEPS,
): Pick<ProfileBench, "topSelf" | "steps"> {
  const self = busySelfTimes(profile);
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  const nameOf = (id: number) => nodes.get(id)?.callFrame.functionName || "(anonymous)";
  const total = [...self.values()].reduce((a, b) => a + b, 0) || 1;
  const pct = (t: number) => (100 * t) / total;

  const bySelf = new Map<string, number>();
  for (const n of profile.nodes) {
    const where = n.callFrame.url.replace(/^file:\/\//, "").replace(/^.*?\/(apps|shared|node_modules)\//, "$1/");
    const key = where ? `${nameOf(n.id)} (${where})` : nameOf(n.id);
    bySelf.set(key, (bySelf.get(key) ?? 0) + (self.get(n.id) ?? 0));
  }
  const topSelf = [...bySelf.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 15)
    .map(([name, t]) => ({ name, percent: pct(t) }));

  const { inclusive, callers } = inclusiveTimes(profile, self, nameOf, new Set(steps));
  const stepsOut: ProfileStep[] = steps
    .filter((s) => inclusive.has(s))
    .map((name) => ({
      name,
      percent: pct(inclusive.get(name) ?? 0),
      callers: [...(callers.get(name)?.entries() ?? [])]
        .sort((a, b) => b[1] - a[1])
        .slice(0, 3)
        .map(([caller, t]) => ({ name: caller, percent: pct(t) })),
    }))
    .sort((a, b) => b.percent - a.percent);
  return { topSelf, steps: stepsOut };
}

/** Self time per node id, of busy samples only: idle time is not CPU, so percentages leave it out. */
function busySelfTimes(profile: CpuProfile): Map<number, number> {
  const self = new Map<number, number>();
  profile.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  for (const [id] of self) if (nodes.get(id)?.callFrame.functionName === "(idle)") self.delete(id);
  return self;
}

/**
 * Time spent in each function or below it (by name, once per stack, so recursion is not double-counted), and
 * for each watched step, the time per function that called it.
 */
function inclusiveTimes(
  profile: CpuProfile,
  self: ReadonlyMap<number, number>,
  nameOf: (id: number) => string,
  watch: ReadonlySet<string>,
): { inclusive: Map<string, number>; callers: Map<string, Map<string, number>> } {
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const inclusive = new Map<string, number>();
  const callers = new Map<string, Map<string, number>>();
  for (const [id, t] of self) {
    const seen = new Set<string>();
    let cur: number | undefined = id;
    let below: string | null = null;
    while (cur !== undefined) {
      const name = nameOf(cur);
      if (!seen.has(name)) {
        seen.add(name);
        inclusive.set(name, (inclusive.get(name) ?? 0) + t);
      }
      if (below !== null && watch.has(below) && name !== below) {
        const m = callers.get(below) ?? new Map<string, number>();
        m.set(name, (m.get(name) ?? 0) + t);
        callers.set(below, m);
      }
      below = name;
      cur = parent.get(cur);
    }
  }
  return { inclusive, callers };
}

export async function profileRecorder(
  log: (s: string) => void,
  seconds = 8,
  path: "/mcp" | "/api/chat" = "/mcp",
): Promise<ProfileBench & { file: string }> {
  const dir = mkdtempSync(join(tmpdir(), "hopscope-prof-"));
  const upstream = await startUpstream();
  let requests = 0;
  let rps = Number.NaN;
  let cpu = Number.NaN;
  let loadStart = 0;
  let threadMicros: { name: string; microsPerRequest: number }[] = [];
  let stopped = 0;
  try {
    const recorder = await startRecorder(upstream.port, {}, ["--cpu-prof", `--cpu-prof-dir=${dir}`]);
    try {
      const url = `http://127.0.0.1:${path === "/mcp" ? recorder.mcpPort : recorder.modelPort}${path}`;
      const body = path === "/mcp" ? MCP_BODY : CHAT_BODY;
      log(`bench: profiling the recorder under load (${path}, ${seconds} s)`);
      await load({ url, body, connections: 4, seconds: 1, pid: null }); // past start-up: JIT and pools warm
      loadStart = performance.now();
      const before = recorder.pid ? threadCpuSeconds(recorder.pid) : new Map<string, number>();
      const r = await load({ url, body, connections: 16, seconds, pid: recorder.pid });
      const after = recorder.pid ? threadCpuSeconds(recorder.pid) : new Map<string, number>();
      // Per request, by thread: main (the forward path), worker threads ("node" too, summed), V8's GC helpers, libuv's pool.
      threadMicros = [...after.entries()]
        .map(([name, t]) => ({
          name,
          microsPerRequest: r.requests > 0 ? ((t - (before.get(name) ?? 0)) * 1e6) / r.requests : Number.NaN,
        }))
        .filter((x) => x.microsPerRequest > 0)
        .sort((a, b) => b.microsPerRequest - a.microsPerRequest);
      requests = r.requests;
      rps = r.rps;
      cpu = r.cpuMicrosPerRequest ?? Number.NaN;
    } finally {
      await recorder.stop();
      stopped = performance.now();
      recorder.cleanup();
    }
  } finally {
    upstream.stop();
  }
  // One file per thread (CPU.<date>.<time>.<pid>.<thread>.<seq>.cpuprofile): the main thread (API, feed),
  // the taps thread (the forward path), the recording thread, and the loader's helper threads. The taps and
  // recording threads are told apart by the code they ran.
  const files = readdirSync(dir).filter((f) => f.endsWith(".cpuprofile"));
  // Only the load and the shutdown after it: start-up (module loading) is not what a request costs.
  const read = (f: string) =>
    lastWindow(JSON.parse(readFileSync(join(dir, f), "utf8")) as CpuProfile, stopped - loadStart);
  const ran = (p: CpuProfile, file: string) => p.nodes.some((n) => n.callFrame.url.endsWith(file));
  const profiles = files.map((f) => ({ f, p: read(f) }));
  const taps = profiles.find((x) => ran(x.p, "/tap/request-relay.ts") && x.p.samples.length > 0);
  if (!taps)
    throw new Error(`the recorder wrote no .cpuprofile of its taps thread in ${dir} (did it exit cleanly on SIGTERM?)`);
  const recording = profiles.find((x) => ran(x.p, "/recording/store-writer.ts"));
  return {
    path,
    seconds,
    requests,
    rps,
    cpuMicrosPerRequest: cpu,
    threads: threadMicros,
    ...summariseProfile(taps.p),
    ...(recording
      ? { recording: { ...summariseProfile(recording.p, RECORDING_STEPS), sqlitePercent: sqlitePercent(recording.p) } }
      : {}),
    file: join(dir, taps.f),
  };
}

/**
 * The recording thread's time in SQLite, % of its busy samples: self time in better-sqlite3's JavaScript
 * (its transaction wrapper, whose COMMIT writes the WAL) and in the store writer's transaction body, whose
 * own samples are the native statement calls it makes (binding, B-tree inserts: V8's profiler has no frames
 * for native code, it charges them to the calling function; the body's own JavaScript is two loops). The
 * row's parameters are built in exchangeParams/traceParams, which have frames of their own and are ours.
 */
function sqlitePercent(p: CpuProfile): number {
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  let busy = 0;
  let sqlite = 0;
  p.samples.forEach((id, i) => {
    const frame = byId.get(id)?.callFrame;
    const t = p.timeDeltas[i] ?? 0;
    if (!frame || frame.functionName === "(idle)") return;
    busy += t;
    if (
      frame.url.includes("/better-sqlite3/") ||
      (frame.url.endsWith("/recording/store-writer.ts") && frame.functionName === "")
    )
      sqlite += t;
  });
  return busy > 0 ? (100 * sqlite) / busy : Number.NaN;
}

export function cleanupProfile(file: string): void {
  rmSync(join(file, ".."), { recursive: true, force: true });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const seconds = Number(process.argv[2] ?? 8);
  const path = process.argv[3] === "/api/chat" ? "/api/chat" : "/mcp";
  const p = await profileRecorder((s) => process.stderr.write(`${s}\n`), seconds, path);
  const line = (x: { name: string; percent: number }) => `${x.percent.toFixed(1).padStart(5)}%  ${x.name}`;
  process.stdout.write(
    [
      `${p.requests} requests, ${p.rps.toFixed(0)} req/s, ${p.cpuMicrosPerRequest.toFixed(0)} µs CPU per request (with the profiler on)`,
      `profile: ${p.file}`,
      "",
      "self time (main thread, of busy samples):",
      ...p.topSelf.map(line),
      "",
      `CPU µs per request by thread (/proc, profiler on): ${p.threads.map((t) => `${t.name} ${t.microsPerRequest.toFixed(0)}`).join(", ")}`,
      `SQLite: ${p.recording?.sqlitePercent?.toFixed(1) ?? "?"} % of the recording thread's busy samples`,
      "",
      "inclusive time of the recorder's steps (main thread):",
      ...p.steps.map(
        (s) =>
          `${line(s)}${s.callers.length ? `   ← ${s.callers.map((c) => `${c.name} ${c.percent.toFixed(1)}%`).join(", ")}` : ""}`,
      ),
      "",
    ].join("\n"),
  );
}
