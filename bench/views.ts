/**
 * "What the model saw" at an agent's size, beside the article's prompt in the same run: the article's first
 * request (five tools, ~1k tokens), opencode's (27 tools, ~7k) and Claude Code's second request (38 tools, ~18k),
 * each sent to the recorder's model tap as the native /api/chat request Ollama builds from it (the bench upstream
 * answers /api/chat; the prompt is the same). For each:
 * - `GET /api/exchanges/:id/views` from Node: the payload's size and the median time (the recorder renders,
 *   tokenises once, computes the budget, the truncation and what the model never sees on every call);
 * - in this process: the token budget alone (one tokenisation of the prompt, then the parts), median of the runs;
 * - in Chromium, from the click on the request's hop row: the prompt on screen, the context picture (the budget)
 *   on screen, and the longest main-thread task in the next second (PerformanceObserver `longtask`).
 * Each agent's figures are also given as ratios to the article's.
 */
import { readFileSync } from "node:fs";
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

async function timeViews(r: RecorderChild, id: number): Promise<{ ms: number; bytes: number; tokens: number }> {
  const times: number[] = [];
  let bytes = 0;
  let tokens = 0;
  for (let i = 0; i < RUNS + 1; i++) {
    const t = performance.now();
    const res = await fetch(`http://127.0.0.1:${r.uiPort}/api/exchanges/${id}/views`);
    const text = await res.text();
    if (i > 0) times.push(performance.now() - t);
    bytes = Buffer.byteLength(text);
    tokens = (JSON.parse(text) as { prompt?: { tokens?: { count: number } } }).prompt?.tokens?.count ?? 0;
  }
  return { ms: median(times), bytes, tokens };
}

/** From the click on the request's row: prompt on screen, context picture on screen, longest task in the next second. */
async function openOnce(ctx: BrowserContext, r: RecorderChild, rec: Recorded): Promise<[number, number, number]> {
  const page: Page = await ctx.newPage();
  try {
    await page.addInitScript(OBSERVE_LONG_TASKS);
    await page.goto(`http://127.0.0.1:${r.uiPort}/#/trace/${rec.traceId}`);
    const row = page.locator(ROW).first();
    await row.waitFor({ state: "visible", timeout: 60_000 });
    // Let the page settle (its bundle parsed, the trace drawn) so the tasks measured are the click's.
    await page.waitForTimeout(500);
    const t0 = (await page.evaluate("performance.now()")) as number;
    await row.click();
    await page.getByTestId("rendered-prompt").waitFor({ state: "visible", timeout: 60_000 });
    const tPrompt = (await page.evaluate("performance.now()")) as number;
    await page.getByTestId("context-picture").first().waitFor({ state: "visible", timeout: 60_000 });
    const tBudget = (await page.evaluate("performance.now()")) as number;
    await page.waitForTimeout(1000);
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
  for (let i = 0; i < RUNS + 1; i++) {
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
  const views = await timeViews(r, rec.exchangeId);
  const prompt: number[] = [];
  const budget: number[] = [];
  const longTask: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    // A fresh trace each run: the first open of an exchange is the one a learner waits for.
    const fresh = i === 0 ? rec : await record(r, c.body());
    const [p, b, l] = await openOnce(ctx, r, fresh);
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
  return { runs: RUNS, cases };
}
