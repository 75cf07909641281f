/** Writes the benchmark's results as bench/results.json and a table in bench/RESULTS.md, with the machine and versions. */
import { bigPromptSection } from "./big-prompt-report";
import { agentLoadSection } from "./agent-load-report";
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { cpus, release, totalmem } from "node:os";
import { join } from "node:path";
import { readersSection } from "./readers";
import { f, ratio } from "./figures";
import { profileSection } from "./profile-section";
import { startSection } from "./start-report";
import { targets } from "./targets";
import type {
  BenchResults,
  PromptBench,
  Section,
  SoakBench,
  SoakSample,
  UiBench,
  ViewsBench,
  ViewsCase,
} from "./results";

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
    `Written ${r.startedAt} by \`npm run bench\`. Proxies: ${r.rounds} alternating rounds, ${r.seconds} s per load run, 16 connections; medians.`,
    ...sectionDates(r),
    "",
    `Machine: ${machine.cpu}, ${machine.cores} cores (shared by load generator, proxy and upstream), ${machine.memoryGiB} GiB, Linux ${machine.kernel}, Node ${machine.node}; ${machine.nginx}; mitmdump: ${machine.mitmdump}. 1-minute load average ${f(r.loadAverage.start, 1)} at the start, ${f(r.loadAverage.end, 1)} at the end of the run that measured the proxies${Math.max(r.loadAverage.start, r.loadAverage.end) > machine.cores ? " (other work was running on the box: absolute figures are inflated, ratios within one run still compare like with like)" : ""}.`,
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
    ...agentLoadSection(r.agentLoad),
    ...readersSection(r.readers),
    ...profileSection(r.profile),
    ...promptSection(r.prompt),
    ...bigPromptSection(r.bigPrompt ?? null),
    ...uiSection(r.ui),
    ...startSection(r.start),
    ...soakSection(r.soak),
    ...HOW_TO_RUN,
  ].join("\n");
  writeFileSync(join(dir, "RESULTS.md"), md);
  return [join(dir, "RESULTS.md"), join(dir, "results.json")];
}

function promptSection(p: PromptBench | null): string[] {
  if (!p) return [];
  return [
    "## Prompt engine",
    "",
    `Per call, in one process, batches alternating A B (median of ${p.batches}). hopscope = \`renderChat\` (Ollama's Go template semantics, with segments); baseline = \`@huggingface/jinja\` rendering Qwen2.5's HF chat template. Both then tokenise with the same Qwen2.5 tokenizer (loaded once in ${f(p.tokenizerLoadMs)} ms). Ratio = baseline time ÷ hopscope time (above 1: hopscope is faster).`,
    "",
    "| case | messages | hopscope render + tokenise µs | baseline render + tokenise µs | ratio | hopscope render only µs | baseline render only µs | ratio | tokens (hopscope / HF) | prompt chars |",
    "|---|---|---|---|---|---|---|---|---|---|",
    ...p.cases.map(
      (c) =>
        `| ${c.name} | ${c.messages} | ${f(c.hopscopeMicros, 1)} | ${f(c.baselineMicros, 1)} | ${f(c.ratio, 2)}× | ${f(c.hopscopeRenderMicros, 1)} | ${f(c.baselineRenderMicros, 1)} | ${f(c.renderRatio, 2)}× | ${c.tokens} / ${c.baselineTokens} | ${c.promptChars} |`,
    ),
    "",
    "The token counts differ because the two templates print tools and tool-call arguments differently (Go JSON vs Python `json.dumps` spacing and key order), as shared/test/prompt/hf-crosscheck.test.ts asserts.",
    "",
  ];
}

function uiSection(u: UiBench | null): string[] {
  if (!u) return [];
  const lines = ["## Timeline", ""];
  if (u.open) {
    lines.push(
      `- Opening a recorded ${u.open.exchanges}-exchange trace in Chromium: interactive after **${f(u.open.interactiveMs)} ms** (median of ${u.open.runs}); baseline, ${u.open.baselineName}: ${f(u.open.baselineMs)} ms; ratio ${ratio(u.open.interactiveMs, u.open.baselineMs)}. The same page on a 1-exchange trace: ${f(u.open.smallTraceMs)} ms; the recorder answering GET /api/traces/:id alone: ${f(u.open.apiMs)} ms.${
        u.open.htmlFile
          ? ` The same trace as one HTML file (${f(u.open.htmlFile.bytes / 1024 / 1024)} MB, exported in ${f(u.open.htmlFile.exportMs)} ms) opened from file://: ${f(u.open.htmlFile.ms)} ms; ratio to the live UI ${ratio(u.open.htmlFile.ms, u.open.interactiveMs)}.`
          : ""
      }`,
      `  Interactive means: ${u.open.definition}`,
    );
  }
  if (u.live) {
    const ok = u.live.shown >= u.live.sent && u.live.recorded >= u.live.sent;
    lines.push(
      `- ${ok ? "✅" : "❌"} Live feed at ${f(u.live.ratePerSecond)} exchanges/s for ${f(u.live.seconds)} s into an open page: ${u.live.sent} sent, ${u.live.recorded} recorded, ${u.live.shown} shown as hop rows (counted by scrolling the virtualised list); the page had the last hop ${f(u.live.catchUpMs)} ms after the last answer.`,
    );
  }
  if (u.audience) {
    const { none, room } = u.audience;
    lines.push(
      `- ${room.sawLastHop === room.viewers ? "✅" : "❌"} Audience view: the presenter replays the article trace for ${f(u.audience.replaySeconds)} s (a position every ${f(u.audience.putIntervalMs)} ms). Recorder with no viewer: ${f(none.cpuSeconds, 2)} s CPU, peak ${f(none.peakRssMiB)} MiB; with ${room.viewers} WebSocket viewers (each first reading the trace, its exchanges and views): ${f(room.cpuSeconds, 2)} s CPU (${ratio(room.cpuSeconds, none.cpuSeconds)}; following alone, after the reads: ${f(none.followCpuSeconds, 2)} → ${f(room.followCpuSeconds, 2)} s), peak ${f(room.peakRssMiB)} MiB; ${room.sawLastHop}/${room.viewers} saw the last hop. Measured once, on a machine shared with other work.`,
    );
  }
  if (u.views) lines.push(...viewsLines(u.views));
  for (const n of u.notes) lines.push(`- Note: ${n}`);
  lines.push("");
  return lines;
}

/** Targets for an 18k-token prompt: /views, the prompt on screen, the budget, the longest main-thread task. */
const VIEWS_TARGETS = { viewsMs: 150, promptOnScreenMs: 500, budgetMs: 300, longestTaskMs: 100 } as const;

function viewsLines(v: ViewsBench): string[] {
  const base = v.cases[0];
  if (!base) return [];
  const mark = (c: ViewsCase, k: keyof typeof VIEWS_TARGETS) =>
    c.tokens < 15000 ? "" : c[k] <= VIEWS_TARGETS[k] ? " ✅" : ` ❌ (target ≤ ${VIEWS_TARGETS[k]} ms)`;
  const out = [
    `- "What the model saw" (median of ${v.runs}; from the click on the request's hop; ratios to the article's prompt in the same run):`,
  ];
  for (const c of v.cases) {
    const r = (k: keyof ViewsCase) => (c === base ? "" : ` (${ratio(c[k] as number, base[k] as number)})`);
    out.push(
      `  - ${c.name}, ${c.tokens.toLocaleString("en")} tokens: /views ${f(c.viewsMs)} ms${r("viewsMs")}${mark(c, "viewsMs")}, ${f(c.viewsBytes / 1024)} KB${r("viewsBytes")}; budget ${f(c.budgetMs)} ms${r("budgetMs")}${mark(c, "budgetMs")}; prompt on screen ${f(c.promptOnScreenMs)} ms${r("promptOnScreenMs")}${mark(c, "promptOnScreenMs")}, context picture ${f(c.budgetOnScreenMs)} ms${r("budgetOnScreenMs")}; longest main-thread task ${f(c.longestTaskMs)} ms${mark(c, "longestTaskMs")}`,
    );
  }
  return out;
}

function soakSection(s: SoakBench | null): string[] {
  if (!s) return [];
  const ok = s.lost === 0;
  return [
    "## Soak",
    "",
    `${f(s.minutes, 1)} minutes through hopscope's taps at ~${f(s.ratePerSecond)} req/s, paced (4 in 5 MCP-like to the MCP tap, 1 in 5 chat-like 2 KB answers to the model tap): ${s.requestsSent} requests answered (${s.errors} errors), ${s.exchangesRecorded} exchanges in SQLite: ${ok ? "✅ none lost" : `❌ ${s.lost} lost`}. RSS ${f(s.rssMiBStart)} → max ${f(s.rssMiBMax)} → ${f(s.rssMiBEnd)} MiB; database ${f(s.dbMiBEnd, 1)} MiB (${f(s.dbBytesPerExchange)} bytes per exchange).`,
    "",
    "| t (s) | requests | RSS MiB | DB + WAL MiB |",
    "|---|---|---|---|",
    ...s.samples.map((x) => `| ${f(x.atSeconds)} | ${x.requestsSent} | ${f(x.rssMiB)} | ${f(x.dbMiB, 1)} |`),
    "",
    rssTrend(s),
    "",
    "What bounds memory: exchanges leave memory once written (batches every FLUSH_INTERVAL_MS, or sooner when large, on the recording thread); the queue from the taps to the recording thread is bounded (250,000 events or 64 MiB; beyond it exchanges are forwarded and counted as not recorded); the per-trace sequence map is capped at 2,000 entries and the grouper's conversation and pending-call lists at a fixed count; the live feed's resume ring at 5,000 frames / 16 MiB; each WebSocket client's unsent bytes at WS_MAX_BUFFERED_BYTES (then it is dropped); SQLite's page cache at its default 2 MiB. The database is not bounded: it grows linearly with what is recorded (bodies up to MAX_BODY_BYTES each), so its size per exchange is the figure to watch; deleting traces reclaims it.",
    "",
  ];
}

const HOW_TO_RUN = [
  "## How to run",
  "",
  "```sh",
  "sudo apt-get install -y nginx-light mitmproxy chromium   # optional contenders and the browser for the timeline part",
  "npm run build -w apps/web                                # the timeline the recorder serves",
  "npm run bench                                            # proxies + prompt engine + timeline, ~5 minutes",
  "npm run bench -- --rounds 5 --seconds 6                  # more rounds, longer load runs",
  "npm run bench -- --only direct,node,hopscope             # a subset of contenders (name prefixes)",
  "npm run bench -- --no-proxies --no-ui                    # the prompt engine only",
  "npm run bench -- --no-proxies --no-prompt --no-ui        # the start times only (npm start, hopscope wrap)",
  "npm run bench -- --soak --soak-minutes 10                # add the soak (not in the default run)",
  "```",
  "",
  "A missing nginx or mitmdump is reported under the table, not an error; without /usr/bin/chromium the timeline part says so.",
  "Figures are from a shared 2-core machine: CPU µs per request is the portable figure, throughput is a share of the box.",
  "",
];

function sectionDates(r: BenchResults): string[] {
  const older = (Object.entries(r.sectionsAt) as [Section, string][]).filter(([, at]) => at !== r.startedAt);
  if (older.length === 0) return [];
  return [
    "",
    `Measured in earlier runs and kept (a partial run rewrites only its own sections): ${older.map(([s, at]) => `${s} ${at}`).join(", ")}.`,
  ];
}

/** RSS growth over the second half of the soak: a leak keeps growing after warm-up; a bounded process levels off. */
function rssTrend(s: SoakBench): string {
  const xs = s.samples;
  if (xs.length < 3) return "Too few samples to judge the memory trend (run --soak-minutes 2 or more).";
  const mid = xs[Math.floor((xs.length - 1) / 2)] as SoakSample;
  const last = xs[xs.length - 1] as SoakSample;
  const minutes = (last.atSeconds - mid.atSeconds) / 60;
  const slope = minutes > 0 ? (last.rssMiB - mid.rssMiB) / minutes : Number.NaN;
  const first = xs[0] as SoakSample;
  const firstHalf =
    (mid.atSeconds - first.atSeconds) / 60 > 0
      ? (mid.rssMiB - first.rssMiB) / ((mid.atSeconds - first.atSeconds) / 60)
      : Number.NaN;
  return `RSS trend: ${f(firstHalf, 1)} MiB/min over the first half (warm-up: JIT, caches, the live feed's ring filling), ${f(slope, 1)} MiB/min over the second half (${f(mid.rssMiB)} → ${f(last.rssMiB)} MiB).`;
}
