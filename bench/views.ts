/**
 * "What the model saw" at an agent's size, beside the article's prompt in the same run: the article's first
 * request (five tools, ~1k tokens), opencode's (27 tools, ~7k) and Claude Code's second request (38 tools, ~18k),
 * each sent to the recorder's model tap as the native /api/chat request Ollama builds from it (the bench upstream
 * answers /api/chat; the prompt is the same). For each:
 * - `GET /api/exchanges/:id/views?omit=tokens,comparisons` from Node, as the UI asks for it (token ids and the other
 *   families' renders come on request): the payload's size and the median time, the first ask of a fresh exchange
 *   (the recorder renders, tokenises once, computes the budget, the truncation and what the model never sees; a
 *   built view is then kept, so asking the same exchange again would time the cache);
 * - in this process: the token budget alone (one tokenisation of the prompt, then the parts), median of the runs;
 * - in Chromium, from the click on the request's hop row: the prompt on screen, the context picture (the budget)
 *   on screen, and the longest main-thread task in the next second (PerformanceObserver `longtask`).
 * Each agent's figures are also given as ratios to the article's.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { BrowserContext, Page } from "playwright-core";
import { toNative } from "@hopscope/shared/dialects/convert";
import { renderChat } from "@hopscope/shared/prompt/render";
import { tokenBudget } from "@hopscope/shared/prompt/token-budget";
import { loadQwenTokenizer } from "@hopscope/shared/tokens/qwen";
import { dialectOfPath } from "@hopscope/shared/dialects/dialect";
import { claudeCodeRequest, opencodeRequest } from "../shared/test/dialects/agent-requests";
import type { RecorderChild } from "./contenders/index";
import { median } from "./measure";
import type { ViewsBench, ViewsCase } from "./results";

const RUNS = 3;
/** Runs per case (--runs when run alone). */
let runs = RUNS;
/** Where to write a CPU profile of the page during the last case's first click (--page-prof when run alone). */
let pageProfFile: string | null = null;
const ROW = '[data-testid="sequence"] [role="listitem"][data-hop]';
const ARTICLE = join(
  import.meta.dirname,
  "..",
  "shared",
  "test",
  "prompt",
  "fixtures",
  "requests",
  "article-turn1.json",
);

/** Long tasks of the page, kept on window from before its scripts run. */
const OBSERVE_LONG_TASKS = `(() => {
  window.__longTasks = [];
  try {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) window.__longTasks.push({ start: e.startTime, duration: e.duration });
    }).observe({ type: "longtask", buffered: true });
  } catch {}
})()`;

function nativeChat(path: string, body: Record<string, unknown>): string {
  const d = dialectOfPath(path);
  if (!d) throw new Error(`${path} is not a model endpoint`);
  return JSON.stringify({ ...toNative(d, body).native, stream: false });
}

const CASES: { name: string; body: () => string }[] = [
  { name: "the article's first request", body: () => readFileSync(ARTICLE, "utf8") },
  { name: "opencode (27 tools)", body: () => nativeChat(opencodeRequest().path, opencodeRequest().body) },
  {
    name: "Claude Code, second request (38 tools)",
    body: () => nativeChat(claudeCodeRequest().path, claudeCodeRequest().body),
  },
];

interface Recorded {
  traceId: string;
  exchangeId: number;
}

async function record(r: RecorderChild, body: string): Promise<Recorded> {
  const traceId = crypto.randomUUID().replace(/-/g, "");
  const res = await fetch(`http://127.0.0.1:${r.modelPort}/api/chat`, {
    method: "POST",
    headers: { "content-type": "application/json", traceparent: `00-${traceId}-${"1".repeat(16)}-01` },
    body,
  });
  await res.arrayBuffer();
  if (res.status !== 200) throw new Error(`the model tap answered ${res.status}`);
  for (let i = 0; i < 100; i++) {
    const res = await fetch(`http://127.0.0.1:${r.uiPort}/api/traces/${traceId}`);
    if (res.ok) {
      const t = (await res.json()) as { exchanges: { id: number }[] };
      if (t.exchanges[0]) return { traceId, exchangeId: t.exchanges[0].id };
    }
    await new Promise((res) => setTimeout(res, 50));
  }
  throw new Error("the recorder did not store the exchange");
}

async function timeViews(
  r: RecorderChild,
  body: string,
  first: Recorded,
): Promise<{ ms: number; bytes: number; tokens: number }> {
  const times: number[] = [];
  let bytes = 0;
  let tokens = 0;
  // One ask of the first exchange warms the recorder (its tokenizer thread, the model's /api/show); then each run
  // asks a fresh exchange once.
  for (let i = 0; i < runs + 1; i++) {
    const rec = i === 0 ? first : await record(r, body);
    const t = performance.now();
    const res = await fetch(
      `http://127.0.0.1:${r.uiPort}/api/exchanges/${rec.exchangeId}/views?omit=tokens,comparisons`,
    );
    const text = await res.text();
    if (i > 0) times.push(performance.now() - t);
    bytes = Buffer.byteLength(text);
    tokens = (JSON.parse(text) as { prompt?: { tokens?: { count: number } } }).prompt?.tokens?.count ?? 0;
  }
  return { ms: median(times), bytes, tokens };
}

/** From the click on the request's row: prompt on screen, context picture on screen, longest task in the next second. */
async function openOnce(
  ctx: BrowserContext,
  r: RecorderChild,
  rec: Recorded,
  profileTo: string | null = null,
): Promise<[number, number, number]> {
  const page: Page = await ctx.newPage();
  try {
    await page.addInitScript(OBSERVE_LONG_TASKS);
    await page.goto(`http://127.0.0.1:${r.uiPort}/#/trace/${rec.traceId}`);
    const row = page.locator(ROW).first();
    await row.waitFor({ state: "visible", timeout: 60_000 });
    // Let the page settle (its bundle parsed, the trace drawn) so the tasks measured are the click's.
    await page.waitForTimeout(500);
    const cdp = profileTo ? await ctx.newCDPSession(page) : null;
    if (cdp) {
      await cdp.send("Profiler.enable");
      await cdp.send("Profiler.setSamplingInterval", { interval: 200 });
      await cdp.send("Profiler.start");
    }
    const t0 = (await page.evaluate("performance.now()")) as number;
    await row.click();
    await page.getByTestId("rendered-prompt").waitFor({ state: "visible", timeout: 60_000 });
    const tPrompt = (await page.evaluate("performance.now()")) as number;
    await page.getByTestId("context-picture").first().waitFor({ state: "visible", timeout: 60_000 });
    const tBudget = (await page.evaluate("performance.now()")) as number;
    await page.waitForTimeout(1000);
    if (cdp && profileTo) {
      const { profile } = await cdp.send("Profiler.stop");
      writeFileSync(profileTo, JSON.stringify(profile));
    }
    const tasks = (await page.evaluate("window.__longTasks")) as { start: number; duration: number }[];
    const longest = Math.max(0, ...tasks.filter((t) => t.start >= t0).map((t) => t.duration));
    return [tPrompt - t0, tBudget - t0, longest];
  } finally {
    await page.close();
  }
}

/** The token budget of the prompt, from its rendered text: one tokenisation, then the parts (ms, median). */
async function timeBudget(body: string): Promise<number> {
  const tok = await loadQwenTokenizer();
  const r = renderChat(JSON.parse(body) as Record<string, unknown>);
  const times: number[] = [];
  for (let i = 0; i < runs + 1; i++) {
    const t = performance.now();
    const ids = tok.encode(r.text);
    tokenBudget({
      text: r.text,
      segments: r.segments,
      tokenStarts: tok.tokenStarts(r.text, ids),
      ollamaVersion: r.ollamaVersion,
    });
    if (i > 0) times.push(performance.now() - t);
  }
  return median(times);
}

async function measureCase(ctx: BrowserContext, r: RecorderChild, c: (typeof CASES)[number]): Promise<ViewsCase> {
  const budgetMs = await timeBudget(c.body());
  const rec = await record(r, c.body());
  const views = await timeViews(r, c.body(), await record(r, c.body()));
  const prompt: number[] = [];
  const budget: number[] = [];
  const longTask: number[] = [];
  for (let i = 0; i < runs; i++) {
    // A fresh trace each run: the first open of an exchange is the one a learner waits for.
    const fresh = i === 0 ? rec : await record(r, c.body());
    const last = c === CASES.at(-1);
    const [p, b, l] = await openOnce(ctx, r, fresh, i === 0 && last ? pageProfFile : null);
    prompt.push(p);
    budget.push(b);
    longTask.push(l);
  }
  return {
    name: c.name,
    tokens: views.tokens,
    viewsBytes: views.bytes,
    viewsMs: views.ms,
    budgetMs,
    promptOnScreenMs: median(prompt),
    budgetOnScreenMs: median(budget),
    longestTaskMs: Math.max(...longTask),
  };
}

export async function measureAgentViews(
  ctx: BrowserContext,
  r: RecorderChild,
  log: (s: string) => void,
): Promise<ViewsBench> {
  const cases: ViewsCase[] = [];
  for (const c of CASES) {
    const m = await measureCase(ctx, r, c);
    log(
      `bench: ui: ${m.name}: ${m.tokens} tokens; budget ${m.budgetMs.toFixed(0)} ms; /views ${m.viewsMs.toFixed(0)} ms (${(m.viewsBytes / 1024).toFixed(0)} KB); prompt on screen ${m.promptOnScreenMs.toFixed(0)} ms, budget ${m.budgetOnScreenMs.toFixed(0)} ms after the click; longest task ${m.longestTaskMs.toFixed(0)} ms`,
    );
    cases.push(m);
  }
  return { runs, cases };
}

/**
 * Alone: `npx tsx bench/views.ts [--runs N] [--cpu-prof DIR] [--page-prof FILE]` — this part of the bench by itself,
 * against a fresh recorder and Chromium. `--cpu-prof` writes the recorder's CPU profile into DIR; `--page-prof` a
 * CPU profile of the page over the last case's first click (a .cpuprofile, for Chromium's performance panel).
 */
async function main(): Promise<void> {
  const arg = (name: string) => {
    const i = process.argv.indexOf(`--${name}`);
    return i >= 0 ? process.argv[i + 1] : undefined;
  };
  const { chromium } = await import("playwright-core");
  const { mkdtempSync, rmSync } = await import("node:fs");
  const { tmpdir, loadavg } = await import("node:os");
  const { startRecorder } = await import("./contenders/index");
  const { startUpstream } = await import("./start-upstream");
  const { webDist } = await import("./web-dist");
  const log = (s: string) => process.stderr.write(`${s}\n`);
  const profDir = arg("cpu-prof");
  pageProfFile = arg("page-prof") ?? null;
  runs = Number(arg("runs") ?? RUNS);
  const web = webDist(log);
  const upstream = await startUpstream();
  const userDataDir = mkdtempSync(join(tmpdir(), "hopscope-bench-chromium-"));
  const recorder = await startRecorder(
    upstream.port,
    { WEB_DIST: web.dir },
    profDir ? ["--cpu-prof", `--cpu-prof-dir=${profDir}`] : [],
  );
  const ctx = await chromium.launchPersistentContext(userDataDir, {
    executablePath: "/usr/bin/chromium",
    headless: true,
    viewport: { width: 1400, height: 900 },
    args: ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"],
  });
  try {
    log(
      `bench: load average ${loadavg()
        .map((l) => l.toFixed(2))
        .join(" ")}`,
    );
    const v = await measureAgentViews(ctx, recorder, log);
    log(
      `bench: load average ${loadavg()
        .map((l) => l.toFixed(2))
        .join(" ")}`,
    );
    process.stdout.write(`${JSON.stringify(v, null, 2)}\n`);
  } finally {
    await ctx.close();
    await recorder.stop();
    recorder.cleanup();
    upstream.stop();
    rmSync(userDataDir, { recursive: true, force: true });
    if (web.built) rmSync(web.dir, { recursive: true, force: true });
  }
}

if (process.argv[1] === import.meta.filename) await main();
