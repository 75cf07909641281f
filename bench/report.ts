/** Writes the benchmark's results as bench/results.json and a table in bench/RESULTS.md, with the machine and versions. */
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { cpus, release, totalmem } from "node:os";
import { join } from "node:path";

export interface ContenderSummary {
  name: string;
  rounds: number;
  mcpRps: number;
  chatRps: number;
  mcpCpuMicros: number;
  chatCpuMicros: number;
  singleLatencyMs: number;
  singleMeanLatencyMs: number;
  p99Ms: number;
  errors: number;
  streamFirstLineIdleMs: number;
  streamMaxGapIdleMs: number;
  streamFirstLineLoadedMs: number;
  streamMaxGapLoadedMs: number;
  peakRssMiB: number;
}

export interface PromptBench {
  cases: { name: string; hopscopeMicros: number; baselineMicros: number; baselineName: string; ratio: number; tokens: number }[];
}
export interface UiBench {
  exchanges: number;
  interactiveMs: number;
  baselineMs: number;
  baselineName: string;
  liveSent: number;
  liveShown: number;
  liveRatePerSecond: number;
}
export interface SoakBench {
  minutes: number;
  requestsSent: number;
  exchangesRecorded: number;
  rssMiBStart: number;
  rssMiBEnd: number;
  dbMiBEnd: number;
  samples: { atSeconds: number; rssMiB: number; dbMiB: number }[];
}

export interface BenchResults {
  startedAt: string;
  rounds: number;
  seconds: number;
  contenders: ContenderSummary[];
  skipped: { name: string; reason: string }[];
  prompt: PromptBench | null;
  ui: UiBench | null;
  soak: SoakBench | null;
}

function version(cmd: string, args: string[]): string {
  try {
    // nginx prints its version on stderr, so both streams are read.
    const out = execFileSync("sh", ["-c", `${cmd} ${args.join(" ")} 2>&1`], { encoding: "utf8" });
    return out.trim().split("\n")[0] ?? "";
  } catch (err) {
    const e = err as { stderr?: string };
    return (e.stderr ?? "").trim().split("\n")[0] || "not installed";
  }
}

const f = (x: number, digits = 0) => (Number.isFinite(x) ? x.toFixed(digits) : "–");
const ratio = (a: number, b: number) => (Number.isFinite(a) && Number.isFinite(b) && b > 0 ? `${(a / b).toFixed(2)}×` : "–");

function targets(r: BenchResults): string[] {
  const by = (prefix: string) => r.contenders.find((c) => c.name.startsWith(prefix));
  const hop = by("hopscope");
  const node = by("node");
  const nginx = by("nginx");
  const mitm = by("mitmdump");
  const direct = by("direct");
  if (!hop) return ["hopscope was not measured."];
  const lines: string[] = [];
  const check = (ok: boolean, text: string) => lines.push(`- ${ok ? "✅" : "❌"} ${text}`);
  if (node) check(hop.mcpRps >= node.mcpRps, `hopscope with recording ≥ 1.0× the plain Node pass-through: ${ratio(hop.mcpRps, node.mcpRps)}`);
  if (mitm) check(hop.mcpRps >= 10 * mitm.mcpRps, `≥ 10× mitmdump: ${ratio(hop.mcpRps, mitm.mcpRps)}`);
  if (nginx) check(hop.mcpRps >= 0.4 * nginx.mcpRps, `≥ 0.4× nginx: ${ratio(hop.mcpRps, nginx.mcpRps)}`);
  check(hop.mcpCpuMicros <= 120, `≤ 120 µs CPU per recorded exchange: ${f(hop.mcpCpuMicros)} µs`);
  if (direct) {
    const added = hop.singleMeanLatencyMs - direct.singleMeanLatencyMs;
    check(added <= 0.15, `added latency at one connection ≤ 0.15 ms: ${f(added, 3)} ms`);
  }
  check(hop.streamFirstLineLoadedMs < 250 && hop.streamMaxGapLoadedMs < 250, `streamed lines forwarded as they come, even under load: first line ${f(hop.streamFirstLineLoadedMs)} ms, largest gap ${f(hop.streamMaxGapLoadedMs)} ms (upstream sends every 50 ms)`);
  return lines;
}

export function writeResults(r: BenchResults): string[] {
  const dir = import.meta.dirname;
  const machine = {
    cpu: cpus()[0]?.model ?? "unknown",
    cores: cpus().length,
    memoryGiB: Math.round(totalmem() / 2 ** 30),
    kernel: release(),
    node: process.version,
    nginx: version("nginx", ["-v"]),
    mitmdump: version("mitmdump", ["--version"]),
  };
  writeFileSync(join(dir, "results.json"), `${JSON.stringify({ machine, ...r }, null, 2)}\n`);
  const direct = r.contenders.find((c) => c.name === "direct");
  const node = r.contenders.find((c) => c.name.startsWith("node"));
  const rows = r.contenders.map(
    (c) =>
      `| ${c.name} | ${f(c.mcpRps)} | ${ratio(c.mcpRps, direct?.mcpRps ?? Number.NaN)} | ${ratio(c.mcpRps, node?.mcpRps ?? Number.NaN)} | ${f(c.chatRps)} | ${c.name === "direct" ? "–" : f(c.mcpCpuMicros)} | ${f(c.singleMeanLatencyMs, 3)} | ${f(c.p99Ms)} | ${f(c.streamFirstLineIdleMs)} / ${f(c.streamMaxGapIdleMs)} | ${f(c.streamFirstLineLoadedMs)} / ${f(c.streamMaxGapLoadedMs)} | ${c.name === "direct" ? "–" : f(c.peakRssMiB)} | ${c.errors} |`,
  );
  const md = [
    "# Benchmark results",
    "",
    `Run ${r.startedAt} with \`npm run bench\` (${r.rounds} alternating rounds, ${r.seconds} s per load run, 16 connections; medians).`,
    "",
    `Machine: ${machine.cpu}, ${machine.cores} cores (shared by load generator, proxy and upstream), ${machine.memoryGiB} GiB, Linux ${machine.kernel}, Node ${machine.node}; ${machine.nginx}; mitmdump: ${machine.mitmdump}.`,
    "",
    "## Proxies",
    "",
    "| contender | MCP-like req/s (400 B) | × direct | × node baseline | chat-like req/s (2 KB) | CPU µs/req (proxy) | 1-conn mean latency ms | p99 ms | stream idle: first line / max gap ms | stream under load: first / max gap ms | peak RSS MiB | errors |",
    "|---|---|---|---|---|---|---|---|---|---|---|---|",
    ...rows,
    "",
    ...(r.skipped.length ? ["Not measured:", ...r.skipped.map((s) => `- ${s.name}: ${s.reason}`), ""] : []),
    "The upstream streams 20 NDJSON lines 50 ms apart; a proxy that buffers shows a first line near 1 s and one large gap.",
    "",
    "## Targets",
    "",
    ...targets(r),
    "",
    ...(r.prompt
      ? [
          "## Prompt engine",
          "",
          "| case | hopscope render + tokenise µs/call | baseline | baseline µs/call | ratio | tokens |",
          "|---|---|---|---|---|---|",
          ...r.prompt.cases.map((c) => `| ${c.name} | ${f(c.hopscopeMicros, 1)} | ${c.baselineName} | ${f(c.baselineMicros, 1)} | ${c.ratio.toFixed(2)}× | ${c.tokens} |`),
          "",
        ]
      : []),
    ...(r.ui
      ? [
          "## Timeline",
          "",
          `- Opening a recorded ${r.ui.exchanges}-exchange trace in Chromium: sequence view interactive after ${f(r.ui.interactiveMs)} ms (baseline, ${r.ui.baselineName}: ${f(r.ui.baselineMs)} ms; ${ratio(r.ui.interactiveMs, r.ui.baselineMs)}).`,
          `- Live feed at ${f(r.ui.liveRatePerSecond)} exchanges/s: ${r.ui.liveShown} of ${r.ui.liveSent} shown.`,
          "",
        ]
      : []),
    ...(r.soak
      ? [
          "## Soak",
          "",
          `${r.soak.minutes} minutes at moderate load through hopscope: ${r.soak.requestsSent} requests sent, ${r.soak.exchangesRecorded} exchanges recorded; RSS ${f(r.soak.rssMiBStart)} → ${f(r.soak.rssMiBEnd)} MiB; database ${f(r.soak.dbMiBEnd, 1)} MiB.`,
          "",
        ]
      : []),
  ].join("\n");
  writeFileSync(join(dir, "RESULTS.md"), md);
  return [join(dir, "RESULTS.md"), join(dir, "results.json")];
}
