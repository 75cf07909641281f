/**
 * The timeline in Chromium, against a real recorder (apps/proxy main.ts as a child, its taps in front of the
 * bench upstream):
 *
 * (a) Open a recorded 1,000-exchange trace (real traffic through the taps, one traceparent, a repeating
 *     question: agent → tools/list → chat → tools/call → chat) and time, from navigation start, until the
 *     sequence view is interactive: the first hop row is rendered, a click on it is issued at once, and the
 *     hop detail panel for that hop is on screen. Baselines in the same browser, alternating run by run:
 *     the raw JSON of the same trace (GET /api/traces/:id shown by Chromium) and the UI on a 1-exchange trace.
 * (b) With the UI open on a trace, send 200 exchanges per second for a few seconds into that trace and
 *     count, by scrolling the (virtualised) sequence view, that every one of them shows up as a hop row.
 *
 * Selectors (apps/web/src): `[data-testid="sequence"]`, rows `[role="listitem"][data-hop]`, the detail
 * `[data-testid="hop-detail"]`. A part that cannot run says why in `notes` instead of failing the bench.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { chromium, type BrowserContext, type Page } from "playwright-core";
import { startRecorder, type RecorderChild } from "./contenders/index";
import { median } from "./measure";
import type { UiBench, UiLive, UiOpen } from "./results";
import { startUpstream } from "./start-upstream";
import { MCP_LIST, mcpCall, newTraceparent, recordTrace } from "./ui-traffic";
import { runAudienceBench } from "./audience";
import { measureAgentViews } from "./views";
import { paced, post } from "./traffic";
import { CHROMIUM_ARGS } from "../tests/browser/support/browser";

const CHROMIUM = "/usr/bin/chromium";
const ROOT = join(import.meta.dirname, "..");
const WEB = join(ROOT, "apps", "web");
const EXCHANGES = 1000;
const RUNS = 5;
const LIVE_RATE = 200;
const LIVE_SECONDS = 5;

const ROW = '[data-testid="sequence"] [role="listitem"][data-hop]';
const DETAIL = '[data-testid="hop-detail"]';

function newestMtime(path: string): number {
  const st = statSync(path);
  if (!st.isDirectory()) return st.mtimeMs;
  return readdirSync(path).reduce((m, name) => Math.max(m, newestMtime(join(path, name))), st.mtimeMs);
}

/** apps/web/dist when it is newer than the sources; otherwise a fresh build into a temp dir (dist is left alone). */
function webDist(log: (s: string) => void): { dir: string; built: boolean } {
  const dist = join(WEB, "dist");
  const sources = Math.max(
    newestMtime(join(WEB, "src")),
    newestMtime(join(WEB, "index.html")),
    newestMtime(join(ROOT, "shared", "src")),
  );
  const fresh = (f: string) => existsSync(join(dist, f)) && statSync(join(dist, f)).mtimeMs >= sources;
  if (fresh("index.html") && fresh("share.html")) return { dir: dist, built: false };
  const out = mkdtempSync(join(tmpdir(), "hopscope-bench-web-"));
  log(`bench: ui: apps/web/dist is missing or older than its sources; building into ${out}`);
  for (const [config, dir] of [
    ["vite.config.ts", out],
    ["vite.share.config.ts", out],
    ["vite.audience.config.ts", join(out, "audience")],
  ] as const) {
    execFileSync(
      process.execPath,
      [
        join(ROOT, "node_modules", "vite", "bin", "vite.js"),
        "build",
        "--config",
        join(WEB, config),
        "--outDir",
        dir,
        "--logLevel",
        "error",
      ],
      {
        cwd: ROOT,
        stdio: ["ignore", "ignore", "inherit"],
      },
    );
  }
  return { dir: out, built: true };
}

interface TraceJson {
  exchanges: unknown[];
}
async function traceJson(r: RecorderChild, traceId: string): Promise<TraceJson | null> {
  const res = await fetch(`http://127.0.0.1:${r.uiPort}/api/traces/${traceId}`);
  if (res.status === 404) return null;
  if (!res.ok) throw new Error(`GET /api/traces/${traceId} answered ${res.status}: ${await res.text()}`);
  return (await res.json()) as TraceJson;
}

/** Milliseconds since the page's navigation started, read in the page. */
const pageNow = (page: Page) => page.evaluate("performance.now()") as Promise<number>;

/** From navigation start: first hop row rendered → click it → its detail panel shown. */
async function openTimeline(ctx: BrowserContext, url: string): Promise<number> {
  const page = await ctx.newPage();
  try {
    await page.goto(url, { waitUntil: "commit" });
    const row = page.locator(ROW).first();
    await row.waitFor({ state: "visible", timeout: 60_000 });
    const hop = await row.getAttribute("data-hop");
    await row.click();
    await page.locator(`${DETAIL}[aria-label="Hop ${hop} in detail"]`).waitFor({ state: "visible", timeout: 30_000 });
    return await pageNow(page);
  } finally {
    await page.close();
  }
}

/** The trace exported as one HTML page (format=html), written to a temp dir; null (and a log line) when the export fails. */
async function exportHtmlFile(
  r: RecorderChild,
  traceId: string,
  log: (s: string) => void,
): Promise<{ url: string; dir: string; bytes: number; exportMs: number } | null> {
  const t = performance.now();
  const res = await fetch(`http://127.0.0.1:${r.uiPort}/api/traces/${traceId}/export?format=html`);
  const body = await res.text();
  const exportMs = performance.now() - t;
  if (!res.ok) {
    log(`bench: ui: the HTML export answered ${res.status}: ${body.slice(0, 200)}`);
    return null;
  }
  const dir = mkdtempSync(join(tmpdir(), "hopscope-bench-html-"));
  const path = join(dir, "trace.html");
  writeFileSync(path, body);
  return { url: pathToFileURL(path).href, dir, bytes: Buffer.byteLength(body), exportMs };
}

/** From navigation start: Chromium has shown the trace's raw JSON. */
async function openRawJson(ctx: BrowserContext, url: string): Promise<number> {
  const page = await ctx.newPage();
  try {
    await page.goto(url, { waitUntil: "load" });
    await page.locator("body pre, body").first().waitFor({ state: "visible" });
    return await pageNow(page);
  } finally {
    await page.close();
  }
}

async function measureOpen(ctx: BrowserContext, r: RecorderChild, log: (s: string) => void): Promise<UiOpen> {
  log(`bench: ui: recording a ${EXCHANGES}-exchange trace through the taps`);
  const bigId = await recordTrace(r, EXCHANGES);
  const smallId = newTraceparent();
  await post(`http://127.0.0.1:${r.mcpPort}/mcp`, MCP_LIST, { traceparent: smallId.header });
  const stored = (await traceJson(r, bigId))?.exchanges.length ?? 0;
  if (stored !== EXCHANGES) throw new Error(`the recorder stored ${stored} exchanges in the trace, not ${EXCHANGES}`);
  const base = `http://127.0.0.1:${r.uiPort}`;
  // Warm-up: the bundle in the browser cache, the recorder's statements prepared.
  await openTimeline(ctx, `${base}/#/trace/${bigId}`);
  await openRawJson(ctx, `${base}/api/traces/${bigId}`);
  const big: number[] = [];
  const raw: number[] = [];
  const small: number[] = [];
  const file = await exportHtmlFile(r, bigId, log);
  const html: number[] = [];
  if (file) await openTimeline(ctx, file.url);
  for (let i = 0; i < RUNS; i++) {
    big.push(await openTimeline(ctx, `${base}/#/trace/${bigId}`));
    raw.push(await openRawJson(ctx, `${base}/api/traces/${bigId}`));
    small.push(await openTimeline(ctx, `${base}/#/trace/${smallId.traceId}`));
    if (file) html.push(await openTimeline(ctx, file.url));
  }
  if (file) rmSync(file.dir, { recursive: true, force: true });
  // How much of either is the recorder answering GET /api/traces/:id (from this process, no browser).
  const api: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t = performance.now();
    await traceJson(r, bigId);
    api.push(performance.now() - t);
  }
  if (file)
    log(
      `bench: ui: the same trace as one HTML file (${(file.bytes / 1024 / 1024).toFixed(1)} MB) from file:// ${median(html).toFixed(0)} ms`,
    );
  log(
    `bench: ui: open ${median(big).toFixed(0)} ms; raw JSON ${median(raw).toFixed(0)} ms; 1-exchange trace ${median(small).toFixed(0)} ms; API alone ${median(api).toFixed(0)} ms`,
  );
  return {
    exchanges: stored,
    definition:
      "from navigation start, the first hop row of the sequence view is rendered, a click on it is issued at once, and that hop's detail panel is visible (Playwright's click and polling included).",
    interactiveMs: median(big),
    baselineMs: median(raw),
    baselineName: "the same trace's raw JSON (GET /api/traces/:id) opened in the same browser",
    smallTraceMs: median(small),
    apiMs: median(api),
    htmlFile: file ? { ms: median(html), bytes: file.bytes, exportMs: file.exportMs } : null,
    runs: RUNS,
  };
}

/** Scrolls the virtualised sequence view top to bottom and returns every hop number it rendered. */
const COLLECT_HOPS = `(async () => {
  const sc = document.querySelector('[data-testid="sequence"]');
  if (!sc) return [];
  const seen = new Set();
  const settle = () => new Promise((r) => setTimeout(() => requestAnimationFrame(() => r()), 20));
  sc.scrollTop = 0;
  for (let guard = 0; guard < 100000; guard++) {
    await settle();
    for (const el of sc.querySelectorAll('[role="listitem"][data-hop]')) seen.add(Number(el.getAttribute('data-hop')));
    if (sc.scrollTop + sc.clientHeight >= sc.scrollHeight - 1) break;
    sc.scrollTop += Math.max(1, sc.clientHeight - 20);
  }
  return [...seen];
})()`;

/** The last hop number the replay controls show ("hop n / N"), or the rendered row count when absent. */
const LAST_HOP = `(() => {
  const t = document.querySelector('[data-testid="hop-position"]')?.textContent ?? '';
  const m = /\\/\\s*(\\d+)/.exec(t);
  return m ? Number(m[1]) : document.querySelectorAll('[data-testid="sequence"] [role="listitem"][data-hop]').length;
})()`;

async function measureLive(ctx: BrowserContext, r: RecorderChild, log: (s: string) => void): Promise<UiLive> {
  const { traceId, header } = newTraceparent();
  const mcp = `http://127.0.0.1:${r.mcpPort}/mcp`;
  // One exchange first so the trace exists and the page opens it like any recorded trace.
  await post(mcp, MCP_LIST, { traceparent: header });
  for (let i = 0; i < 100 && (await traceJson(r, traceId)) === null; i++)
    await new Promise((res) => setTimeout(res, 50));
  const page = await ctx.newPage();
  try {
    await page.goto(`http://127.0.0.1:${r.uiPort}/#/trace/${traceId}`);
    await page.locator(ROW).first().waitFor({ state: "visible", timeout: 60_000 });
    log(`bench: ui: live feed, ${LIVE_RATE} exchanges/s for ${LIVE_SECONDS} s into the open page`);
    const sent = await paced({
      ratePerSecond: LIVE_RATE,
      seconds: LIVE_SECONDS,
      send: (i) => post(mcp, mcpCall(i), { traceparent: header }),
    });
    if (sent.errors > 0)
      throw new Error(`${sent.errors} of ${sent.sent} live requests failed; the first: ${sent.firstError}`);
    const expected = sent.sent + 1;
    const tDone = performance.now();
    // Give the page up to 20 s to catch up, then count what it rendered.
    let last = 0;
    while (performance.now() - tDone < 20_000) {
      last = (await page.evaluate(LAST_HOP)) as number;
      if (last >= expected) break;
      await new Promise((res) => setTimeout(res, 100));
    }
    const catchUpMs = performance.now() - tDone;
    const seen = (await page.evaluate(COLLECT_HOPS)) as number[];
    const recorded = (await traceJson(r, traceId))?.exchanges.length ?? 0;
    const shown = seen.filter((n) => n >= 1 && n <= expected).length;
    log(
      `bench: ui: live: ${expected} sent, ${recorded} recorded, ${shown} rows shown (last hop ${last}), caught up ${catchUpMs.toFixed(0)} ms after the last answer`,
    );
    return {
      ratePerSecond: sent.sent / LIVE_SECONDS,
      seconds: LIVE_SECONDS,
      sent: expected,
      recorded,
      shown,
      catchUpMs,
    };
  } finally {
    await page.close();
  }
}

const why = (r: RecorderChild) => {
  const f = r.failure();
  return f ? ` (${f})` : "";
};

/**
 * One part of the bench: its result, or null with the reason in `notes` (and the log), so the other parts
 * still run. `suffix` adds what the recorder said when it failed.
 */
async function measurePart<T>(
  notes: string[],
  log: (s: string) => void,
  what: string,
  run: () => Promise<T>,
  suffix = () => "",
): Promise<T | null> {
  try {
    return await run();
  } catch (err) {
    notes.push(`${what} could not be measured: ${(err as Error).message.split("\n")[0]}${suffix()}`);
    log(`bench: ui: ${notes.at(-1)}`);
    return null;
  }
}

export async function runUiBench(log: (s: string) => void): Promise<UiBench> {
  if (!existsSync(CHROMIUM))
    return {
      open: null,
      live: null,
      notes: [`${CHROMIUM} is missing (Debian: apt-get install chromium); the timeline was not measured`],
    };
  let web: { dir: string; built: boolean };
  try {
    web = webDist(log);
  } catch (err) {
    return {
      open: null,
      live: null,
      notes: [`the timeline could not be built (npm run build -w apps/web): ${(err as Error).message.split("\n")[0]}`],
    };
  }
  const upstream = await startUpstream();
  const userDataDir = mkdtempSync(join(tmpdir(), "hopscope-bench-chromium-"));
  try {
    return await measureAgainstRecorder(upstream.port, web.dir, userDataDir, log);
  } finally {
    upstream.stop();
    rmSync(userDataDir, { recursive: true, force: true });
    if (web.built) rmSync(web.dir, { recursive: true, force: true });
  }
}

/** Every part in one Chromium against one recorder, then the audience view (which starts its own). */
async function measureAgainstRecorder(
  upstreamPort: number,
  webDir: string,
  userDataDir: string,
  log: (s: string) => void,
): Promise<UiBench> {
  const notes: string[] = [];
  const recorder = await startRecorder(upstreamPort, { WEB_DIST: webDir });
  try {
    const ctx = await chromium.launchPersistentContext(userDataDir, {
      executablePath: CHROMIUM,
      headless: true,
      viewport: { width: 1400, height: 900 },
      args: CHROMIUM_ARGS,
    });
    try {
      const pageErrors: string[] = [];
      ctx.on("page", (p) => p.on("pageerror", (e) => pageErrors.push(e.message)));
      const said = () => why(recorder);
      const trace = `opening the ${EXCHANGES}-exchange trace`;
      const open = await measurePart(notes, log, trace, () => measureOpen(ctx, recorder, log), said);
      const live = await measurePart(notes, log, "the live feed", () => measureLive(ctx, recorder, log), said);
      const agentViews = () => measureAgentViews(ctx, recorder, log);
      const views = await measurePart(notes, log, `"what the model saw"`, agentViews, said);
      for (const e of [...new Set(pageErrors)].slice(0, 5)) notes.push(`the page threw: ${e}`);
      await recorder.stop();
      const audienceView = () => runAudienceBench(upstreamPort, webDir, log);
      const audience = await measurePart(notes, log, "the audience view", audienceView);
      return { open, live, audience, views, notes };
    } finally {
      await ctx.close();
    }
  } finally {
    await recorder.stop();
    recorder.cleanup();
  }
}
