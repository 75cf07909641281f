/**
 * `npm run bench`: what the recorder costs, side by side with the proxies users know, in one run.
 * Contenders alternate round by round (A B C … A B C …) so drift on a noisy machine hits all of them;
 * medians are reported, as ratios to direct and to the plain Node pass-through baseline.
 *
 * Flags: --rounds N (3)  --seconds S (4, per load run)  --only a,b  --soak (10-minute soak of hopscope)
 *        --soak-minutes N (10)  --soak-rate R (100 requests/s)
 *        --no-profile (skip the CPU profile of the recorder taken after the proxies)
 *        --no-readers (skip the stream-while-the-API-is-read measurement)
 *        --fresh (drop sections of earlier runs instead of carrying them over)
 *        --no-agent-load (skip the agent-sized load)  --agents claude-code,codex (which agents' requests it sends; all: all four)
 *        --no-proxies  --no-prompt  --no-ui  --no-start  --no-big-prompt
 */
import { ALL, type Contender } from "./contenders/index";
import { CHAT_BODY, MCP_BODY, load, median, stream, type LoadResult, type StreamResult } from "./measure";
import { treePeakRssMiB } from "./proc";
import { writeResults } from "./report";
import type { ContenderSummary, BenchResults } from "./results";
import { runPromptBench } from "./prompt";
import { runBigPromptBench } from "./big-prompt";
import { runUiBench } from "./ui";
import { runSoak } from "./soak";
import { startUpstream } from "./start-upstream";
import { loadavg } from "node:os";
import { carryOver, readPrevious } from "./previous";
import { cleanupProfile, profileRecorder } from "./profile";
import { runReadersBench } from "./readers";
import { runStartBench } from "./start";
import { runAgentLoadBench } from "./agent-load";
import { AGENT_LOADS } from "./agent-answers";

function flag(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? (process.argv[i + 1] ?? "") : undefined;
}
const has = (name: string) => process.argv.includes(`--${name}`);
/** A numeric flag, or a clear error saying what was wrong with it. */
function num(name: string, def: number): number {
  const raw = flag(name);
  if (raw === undefined) return def;
  const n = Number(raw);
  if (raw === "" || !Number.isFinite(n) || n <= 0) {
    process.stderr.write(
      `bench: --${name} takes a positive number (got ${JSON.stringify(raw)}), e.g. --${name} ${def}\n`,
    );
    process.exit(2);
  }
  return n;
}
const rounds = Math.round(num("rounds", 3));
const seconds = num("seconds", 4);
const only = flag("only")?.split(",");
/** The readers bench and the profile are hopscope's: run unless --only leaves it out ("hopscope" or "hopscope (recording)"). */
const measuresHopscope = !only || only.some((o) => "hopscope".startsWith(o) || o.startsWith("hopscope"));
const log = (s: string) => process.stderr.write(`${s}\n`);

interface Sample {
  mcp: LoadResult;
  chat: LoadResult;
  single: LoadResult;
  streamIdle: StreamResult;
  streamLoaded: StreamResult;
  peakRssMiB: number | null;
  /** Responses the load generator completed in the round (all phases). */
  answeredTotal: number;
  /** Exchanges a recording proxy stored in the round (null for the others). */
  recorded: number | null;
}

async function measureOnce(c: Contender, upstreamPort: number): Promise<Sample> {
  const s = await c.start(upstreamPort);
  let sample: Omit<Sample, "recorded">;
  try {
    const mcpUrl = `http://127.0.0.1:${s.mcpPort}/mcp`;
    const chatUrl = `http://127.0.0.1:${s.modelPort}/api/chat`;
    const genUrl = `http://127.0.0.1:${s.modelPort}/api/generate`;
    // Warm up JITs and pools so the first contender is not penalised.
    const warm = await load({ url: mcpUrl, body: MCP_BODY, connections: 4, seconds: 1, pid: null });
    const mcp = await load({ url: mcpUrl, body: MCP_BODY, connections: 16, seconds, pid: s.pid });
    const chat = await load({ url: chatUrl, body: CHAT_BODY, connections: 16, seconds, pid: s.pid });
    const single = await load({
      url: mcpUrl,
      body: MCP_BODY,
      connections: 1,
      seconds: Math.max(2, seconds - 1),
      pid: s.pid,
    });
    const streamIdle = await stream(genUrl, 20, 50);
    const background = load({ url: mcpUrl, body: MCP_BODY, connections: 16, seconds: 3, pid: null });
    await new Promise((r) => setTimeout(r, 300));
    const streamLoaded = await stream(genUrl, 20, 50);
    const bg = await background;
    const answered = [warm, mcp, chat, single, bg].reduce((n, l) => n + l.requests, 0) + 2;
    sample = {
      mcp,
      chat,
      single,
      streamIdle,
      streamLoaded,
      peakRssMiB: s.pid ? treePeakRssMiB(s.pid) : null,
      answeredTotal: answered,
    };
  } catch (err) {
    const died = s.failure?.();
    await s.stop();
    if (died) throw new Error(`${(err as Error).message}: ${died}`, { cause: err });
    throw err;
  }
  const info = await s.stop();
  return { ...sample, recorded: info?.recorded ?? null };
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
    singleMeanLatencyMs: m((s) =>
      s.single.requests > 0 ? (Math.max(2, seconds - 1) * 1000) / s.single.requests : null,
    ),
    p99Ms: m((s) => s.mcp.latencyP99),
    errors: samples.reduce((n, s) => n + s.mcp.errors + s.chat.errors + s.single.errors, 0),
    streamFirstLineIdleMs: m((s) => s.streamIdle.firstLineMs),
    streamMaxGapIdleMs: m((s) => s.streamIdle.maxGapMs),
    streamFirstLineLoadedMs: m((s) => s.streamLoaded.firstLineMs),
    streamMaxGapLoadedMs: m((s) => s.streamLoaded.maxGapMs),
    peakRssMiB: m((s) => s.peakRssMiB),
    answered: samples.reduce((n, s) => n + s.answeredTotal, 0),
    recorded: samples.some((s) => s.recorded !== null) ? samples.reduce((n, s) => n + (s.recorded ?? 0), 0) : null,
  };
}

/** The proxies compared side by side over the rounds, the API readers beside them, and the recorder's profile. */
async function runProxiesSection(results: BenchResults, startedAt: string): Promise<void> {
  results.sectionsAt.proxies = startedAt;
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
    const failures = new Map<string, string>();
    for (let r = 0; r < rounds; r++) {
      for (const c of contenders) {
        log(`bench: round ${r + 1}/${rounds}: ${c.name}`);
        try {
          samples.get(c.name)?.push(await measureOnce(c, upstream.port));
        } catch (err) {
          // One broken contender (e.g. a recorder that crashes) must not cost the others' figures.
          const why = err instanceof Error ? (err.message.split("\n")[0] ?? err.message) : String(err);
          log(`bench: ${c.name} failed in round ${r + 1}: ${why}`);
          failures.set(c.name, `failed in round ${r + 1}: ${why}`);
        }
      }
    }
    results.contenders = contenders
      .filter((c) => (samples.get(c.name)?.length ?? 0) > 0)
      .map((c) => summarise(c.name, samples.get(c.name) ?? []));
    for (const [name, why] of failures) results.skipped.push({ name, reason: why });
    if (!has("no-readers") && measuresHopscope) {
      results.readers = await runReadersBench(upstream.port, log, rounds);
    }
    if (!has("no-agent-load") && measuresHopscope) {
      const agents =
        flag("agents") === "all" ? AGENT_LOADS.map((a) => a.agent) : (flag("agents") ?? "claude-code,codex").split(",");
      results.agentLoad = await runAgentLoadBench(log, { rounds, seconds, agents });
    }
  } finally {
    upstream.stop();
  }
  if (!has("no-profile") && measuresHopscope) {
    const p = await profileRecorder(log);
    cleanupProfile(p.file);
    const { file: _file, ...profile } = p;
    results.profile = profile;
  }
}

async function main() {
  const startedAt = new Date().toISOString();
  const results: BenchResults = {
    startedAt,
    rounds,
    seconds,
    loadAverage: { start: loadavg()[0] ?? Number.NaN, end: Number.NaN },
    sectionsAt: {},
    contenders: [],
    skipped: [],
    profile: null,
    prompt: null,
    ui: null,
    soak: null,
    readers: null,
    start: null,
  };
  if (!has("no-proxies")) await runProxiesSection(results, startedAt);
  if (!has("no-prompt")) {
    results.sectionsAt.prompt = startedAt;
    results.prompt = await runPromptBench(log);
  }
  if (!has("no-big-prompt")) results.bigPrompt = await runBigPromptBench(log);
  if (!has("no-ui")) {
    results.sectionsAt.ui = startedAt;
    results.ui = await runUiBench(log);
  }
  if (!has("no-start")) {
    results.sectionsAt.start = startedAt;
    results.start = await runStartBench(log, rounds);
  }
  if (has("soak")) {
    results.sectionsAt.soak = startedAt;
    results.soak = await runSoak(log, { minutes: num("soak-minutes", 10), ratePerSecond: num("soak-rate", 100) });
  }
  results.loadAverage.end = loadavg()[0] ?? Number.NaN;
  // A partial run (e.g. --soak alone) keeps the other sections of the last results, each with its own date.
  const merged = has("fresh") ? results : carryOver(results, readPrevious());
  const paths = writeResults(merged);
  log(`bench: wrote ${paths.join(" and ")}`);
}

main().catch((err: unknown) => {
  process.stderr.write(`bench: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
