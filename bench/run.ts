/**
 * `npm run bench`: what the recorder costs, side by side with the proxies users know, in one run.
 * Contenders alternate round by round (A B C … A B C …) so drift on a noisy machine hits all of them;
 * medians are reported, as ratios to direct and to the plain Node pass-through baseline.
 *
 * Flags: --rounds N (3)  --seconds S (4, per load run)  --only a,b  --soak (10-minute soak of hopscope)
 *        --no-proxies  --no-prompt  --no-ui
 */
import { spawn } from "node:child_process";
import { ALL, type Contender } from "./contenders/index";
import { CHAT_BODY, MCP_BODY, load, median, stream, type LoadResult, type StreamResult } from "./measure";
import { treePeakRssMiB } from "./proc";
import { writeResults, type ContenderSummary, type BenchResults } from "./report";
import { runPromptBench } from "./prompt";
import { runUiBench } from "./ui";
import { runSoak } from "./soak";

function flag(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? (process.argv[i + 1] ?? "") : undefined;
}
const has = (name: string) => process.argv.includes(`--${name}`);
const rounds = Number(flag("rounds") ?? 3);
const seconds = Number(flag("seconds") ?? 4);
const only = flag("only")?.split(",");
const log = (s: string) => process.stderr.write(`${s}\n`);

async function startUpstream(): Promise<{ port: number; stop(): void }> {
  const child = spawn(process.execPath, ["--import", "tsx", new URL("./upstream.ts", import.meta.url).pathname], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout?.once("data", (d: Buffer) => resolve(JSON.parse(d.toString()).port));
    child.once("exit", (code) => reject(new Error(`upstream exited ${code}`)));
  });
  return { port, stop: () => child.kill("SIGTERM") };
}

interface Sample {
  mcp: LoadResult;
  chat: LoadResult;
  single: LoadResult;
  streamIdle: StreamResult;
  streamLoaded: StreamResult;
  peakRssMiB: number | null;
}

async function measureOnce(c: Contender, upstreamPort: number): Promise<Sample> {
  const s = await c.start(upstreamPort);
  try {
    const mcpUrl = `http://127.0.0.1:${s.mcpPort}/mcp`;
    const chatUrl = `http://127.0.0.1:${s.modelPort}/api/chat`;
    const genUrl = `http://127.0.0.1:${s.modelPort}/api/generate`;
    // Warm up JITs and pools so the first contender is not penalised.
    await load({ url: mcpUrl, body: MCP_BODY, connections: 4, seconds: 1, pid: null });
    const mcp = await load({ url: mcpUrl, body: MCP_BODY, connections: 16, seconds, pid: s.pid });
    const chat = await load({ url: chatUrl, body: CHAT_BODY, connections: 16, seconds, pid: s.pid });
    const single = await load({ url: mcpUrl, body: MCP_BODY, connections: 1, seconds: Math.max(2, seconds - 1), pid: s.pid });
    const streamIdle = await stream(genUrl, 20, 50);
    const background = load({ url: mcpUrl, body: MCP_BODY, connections: 16, seconds: 3, pid: null });
    await new Promise((r) => setTimeout(r, 300));
    const streamLoaded = await stream(genUrl, 20, 50);
    await background;
    return { mcp, chat, single, streamIdle, streamLoaded, peakRssMiB: s.pid ? treePeakRssMiB(s.pid) : null };
  } finally {
    await s.stop();
  }
}

function summarise(name: string, samples: Sample[]): ContenderSummary {
  const m = (f: (s: Sample) => number | null) => median(samples.map(f).filter((x): x is number => x !== null));
  return {
    name,
    rounds: samples.length,
    mcpRps: m((s) => s.mcp.rps),
    chatRps: m((s) => s.chat.rps),
    mcpCpuMicros: m((s) => s.mcp.cpuMicrosPerRequest),
    chatCpuMicros: m((s) => s.chat.cpuMicrosPerRequest),
    singleLatencyMs: m((s) => s.single.latencyP50),
    singleMeanLatencyMs: m((s) => (s.single.requests > 0 ? (Math.max(2, seconds - 1) * 1000) / s.single.requests : null)),
    p99Ms: m((s) => s.mcp.latencyP99),
    errors: samples.reduce((n, s) => n + s.mcp.errors + s.chat.errors + s.single.errors, 0),
    streamFirstLineIdleMs: m((s) => s.streamIdle.firstLineMs),
    streamMaxGapIdleMs: m((s) => s.streamIdle.maxGapMs),
    streamFirstLineLoadedMs: m((s) => s.streamLoaded.firstLineMs),
    streamMaxGapLoadedMs: m((s) => s.streamLoaded.maxGapMs),
    peakRssMiB: m((s) => s.peakRssMiB),
  };
}

async function main() {
  const results: BenchResults = { startedAt: new Date().toISOString(), rounds, seconds, contenders: [], skipped: [], prompt: null, ui: null, soak: null };
  if (!has("no-proxies")) {
    const upstream = await startUpstream();
    try {
      const contenders: Contender[] = [];
      for (const c of ALL) {
        if (only && !only.some((o) => c.name.startsWith(o))) continue;
        const why = c.unavailable();
        if (why) {
          log(`bench: skipping ${c.name}: ${why}`);
          results.skipped.push({ name: c.name, reason: why });
        } else contenders.push(c);
      }
      const samples = new Map<string, Sample[]>(contenders.map((c) => [c.name, []]));
      for (let r = 0; r < rounds; r++) {
        for (const c of contenders) {
          log(`bench: round ${r + 1}/${rounds}: ${c.name}`);
          samples.get(c.name)?.push(await measureOnce(c, upstream.port));
        }
      }
      results.contenders = contenders.map((c) => summarise(c.name, samples.get(c.name) ?? []));
    } finally {
      upstream.stop();
    }
  }
  if (!has("no-prompt")) results.prompt = await runPromptBench(log);
  if (!has("no-ui")) results.ui = await runUiBench(log);
  if (has("soak")) results.soak = await runSoak(log);
  const paths = writeResults(results);
  log(`bench: wrote ${paths.join(" and ")}`);
}

main().catch((err: unknown) => {
  process.stderr.write(`bench: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
