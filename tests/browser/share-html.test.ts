/**
 * The trace as one HTML file: the article trace is imported into the real recorder, exported
 * with `format=html`, and opened from `file://` in Chromium with every non-file request aborted. Its hops,
 * prompt (with tokens) and replay work with no server; a trace whose bodies carry `</script><script>`,
 * `<img onerror>` and `<!--` runs nothing; secrets stay redacted; a 50 MB trace is refused. The
 * write-instead-of-append lesson's page shows its notes-file lane: the destructive mark and the diff.
 */
import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { HTTPException } from "hono/http-exception";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseTraceBundle, type TraceBundle } from "@hopscope/shared/trace/bundle";
import { exportHtml, MAX_HTML_TRACE_BYTES } from "../../apps/proxy/src/main/export/html";
import type { Browser } from "./support/browser";
import { browserSuite } from "./support/suite";
import { autoReplayToEnd } from "./support/replay-to-end";
import type { RecorderStack } from "../support/recorder-stack";

const ARTICLE = new URL("../../traces/buy-milk.hopscope.json", import.meta.url);
/** The write-instead-of-append lesson: its bundle's `notes` hold the change that destroyed "call the dentist". */
const WRITE = new URL("../../traces/write-instead-of-append.hopscope.json", import.meta.url);
const PAYLOAD = "</script><script>window.__pwned=1;alert(1)</script><img src=x onerror=alert(2)><!-- $& $'";
const SECRET = "sk-live-DO-NOT-SHARE-4242";

async function importTrace(stack: RecorderStack, text: string): Promise<string> {
  const res = await fetch(`${stack.uiUrl}/api/import`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: text,
  });
  expect(res.status, await res.clone().text()).toBe(200);
  return ((await res.json()) as { id: string }).id;
}

async function exportFile(
  stack: RecorderStack,
  id: string,
  dir: string,
  name: string,
): Promise<{ path: string; html: string }> {
  const res = await fetch(`${stack.uiUrl}/api/traces/${id}/export?format=html`);
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toContain("text/html");
  const html = await res.text();
  const path = join(dir, name);
  await writeFile(path, html);
  return { path, html };
}

/** The article trace with the payload in every body and the name, and a secret header on each request. */
function hostile(text: string): string {
  const bundle = JSON.parse(text) as TraceBundle;
  const inject = (s: string) => s.replaceAll("buy milk", () => PAYLOAD); // a function: the `$&` in PAYLOAD stays literal
  bundle.trace.name = `Add ${PAYLOAD}`;
  for (const x of bundle.exchanges) {
    for (const b of [x.requestBody, x.responseBody]) {
      if (b?.encoding !== "utf8") continue;
      b.data = inject(b.data);
      b.size = b.storedSize = Buffer.byteLength(b.data);
    }
    x.requestHeaders.push(["Authorization", `Bearer ${SECRET}`]);
  }
  return JSON.stringify(parseTraceBundle(bundle));
}

describe("a trace as one self-contained HTML file", () => {
  const suite = browserSuite();
  let stack: RecorderStack;
  let browser: Browser;
  let dir: string;
  let article: { path: string; html: string };
  const requests: string[] = [];

  beforeAll(async () => {
    ({ stack, browser } = suite);
    dir = await mkdtemp(join(tmpdir(), "hopscope-share-"));
    article = await exportFile(stack, await importTrace(stack, await readFile(ARTICLE, "utf8")), dir, "article.html");
    browser.page.setDefaultTimeout(10_000);
    // Offline: anything but the file itself is aborted (and remembered, so the test can say what leaked).
    await browser.context.route("**/*", (route) => {
      const url = route.request().url();
      if (url.startsWith("file:")) return route.continue();
      requests.push(url);
      return route.abort();
    });
  }, 120_000);
  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it("is one file well under 1 MB, with a policy that allows only its own script and no network", () => {
    const bytes = Buffer.byteLength(article.html);
    console.log(`[share] article trace as HTML: ${(bytes / 1024).toFixed(1)} KiB`);
    expect(bytes).toBeLessThan(1024 * 1024);
    expect(article.html).toMatch(
      /<meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'sha256-[^']+'; style-src 'sha256-[^']+';/,
    );
    expect(article.html).not.toMatch(/<script[^>]*\ssrc=|<link rel="stylesheet"/);
    expect(article.html.match(/<script type="module">/g)).toHaveLength(1);
    expect(article.html).toContain("<title>buy milk (the article&#39;s trace, Ollama 0.13.5) · hopscope</title>");
  });

  it("opens from file:// offline at ?hop=3: hops, the prompt with its tokens, and the replay work", async () => {
    const { page } = browser;
    await page.goto(`${pathToFileURL(article.path).href}?hop=3`);
    await page.locator('[data-hop="3"][data-selected="true"]').waitFor();
    expect(await page.locator("[data-hop]").count()).toBe(8);
    await page.keyboard.press("2");
    await expect.poll(() => page.getByTestId("rendered-prompt").textContent()).toContain("<tools>");
    expect(await page.getByTestId("token-count").first().textContent()).toMatch(/\d/);
    // The token budget, counted at export (the page carries no tokenizer): its parts sum to the prompt's count.
    await page.keyboard.press("7");
    const budget = page.getByTestId("token-budget").first();
    await budget.waitFor();
    const total = Number(await budget.getAttribute("data-total"));
    expect(total).toBeGreaterThan(100);
    expect(Number(await budget.getAttribute("data-sum"))).toBe(total);
    await browser.screenshot("share-01b-file-budget-1280");
    await page.keyboard.press("2");
    await browser.screenshot("share-01-file-prompt-1280");
    await page.setViewportSize({ width: 1920, height: 1080 });
    await browser.screenshot("share-02-file-prompt-1920");
    await page.setViewportSize({ width: 1280, height: 720 });
    await page.keyboard.press("r");
    await expect.poll(() => page.locator("[data-hop]").count()).toBe(1);
    await page.keyboard.press("j");
    await page.keyboard.press("j");
    await expect.poll(() => page.getByTestId("hop-position").textContent()).toContain("hop 3 / 8");
    await autoReplayToEnd(page, 8); // as in the live UI
    await page.keyboard.press("p");
    await page.getByTestId("presenter").waitFor();
    await browser.screenshot("share-03-file-presenter-1280");
    await page.keyboard.press("Escape");
    expect(requests).toEqual([]);
    expect(browser.pageErrors).toEqual([]);
  });

  it("#hop=5 opens hop 5, and ?embed hides the chrome", async () => {
    const { page } = browser;
    await page.goto(`${pathToFileURL(article.path).href}#hop=5`);
    await page.locator('[data-hop="5"][data-selected="true"]').waitFor();
    expect(await page.getByTestId("share-origin").textContent()).toContain("read-only copy");
    await page.goto(`${pathToFileURL(article.path).href}?embed&hop=2`);
    await page.locator('[data-hop="2"][data-selected="true"]').waitFor();
    expect(await page.getByTestId("share-origin").count()).toBe(0);
    expect(await page.getByTestId("share-app").getAttribute("data-embed")).toBe("true");
    await browser.screenshot("share-04-embed-1280");
    expect(requests).toEqual([]);
  });

  it("shows the notes-file lane from the file: the destructive change's mark and its before/after diff", async () => {
    const { page } = browser;
    const lesson = await exportFile(stack, await importTrace(stack, await readFile(WRITE, "utf8")), dir, "write.html");
    expect(lesson.html).toContain('"notes":[{');
    await page.goto(`${pathToFileURL(lesson.path).href}?hop=1`);
    await page.locator('[data-hop="1"][data-selected="true"]').waitFor();
    expect(await page.getByTestId("notes-lane-name").textContent()).toBe("…/data/db");
    const mark = page.getByTestId("notes-mark");
    await expect.poll(() => mark.count()).toBe(1);
    expect(await mark.getAttribute("data-destructive")).toBe("true");
    expect(await mark.getAttribute("data-cause")).toBe("tool-call");
    expect(await mark.textContent()).toBe("1 note deleted");
    // The mark sits on the tools/call write's row (hop 5) and opens it, with the file before and after.
    await mark.click();
    await page.locator('[data-hop="5"][data-selected="true"]').waitFor();
    const panel = page.getByTestId("hop-detail").getByTestId("notes-change");
    await expect.poll(() => panel.textContent()).toContain("1 note deleted, 1 added");
    const lines = await panel
      .locator("[data-op]")
      .evaluateAll((els) => els.map((e) => `${(e as HTMLElement).dataset.op}:${e.textContent?.slice(1)}`));
    expect(lines).toEqual(["del:call the dentist", "add:buy milk"]);
    expect(await panel.textContent()).toContain("by tools/call write");
    await browser.screenshot("share-06-file-notes-lane-1280");
    expect(requests).toEqual([]);
    expect(browser.pageErrors).toEqual([]);
  });

  it("a trace whose bodies carry </script><script>, <img onerror> and <!-- runs nothing, and its secret stays redacted", async () => {
    const { page } = browser;
    const evil = await exportFile(
      stack,
      await importTrace(stack, hostile(await readFile(ARTICLE, "utf8"))),
      dir,
      "hostile.html",
    );
    expect(evil.html).not.toContain(SECRET);
    expect(evil.html.match(/<script/gi)).toHaveLength(2); // the data element and the page's own script, nothing else
    expect(evil.html).not.toContain("<img src=x");
    const dialogs: string[] = [];
    page.on("dialog", (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    await page.goto(`${pathToFileURL(evil.path).href}?hop=2`);
    await page.locator('[data-hop="2"][data-selected="true"]').waitFor();
    await page.keyboard.press("1");
    await expect.poll(() => page.getByTestId("wire-request").textContent()).toContain("[redacted]");
    expect(await page.getByTestId("trace-name").textContent()).toContain("</script><script>");
    expect(await page.evaluate(() => document.title)).toContain("</script>");
    await page.keyboard.press("j"); // hop 3, the first model request
    await page.keyboard.press("2");
    await expect
      .poll(() => page.getByTestId("rendered-prompt").textContent())
      .toContain("<img src=x onerror=alert(2)>");
    const state = await page.evaluate(() => ({
      pwned: (window as unknown as { __pwned?: number }).__pwned,
      imgs: document.querySelectorAll("img").length,
      scripts: document.querySelectorAll("script").length,
      csp: document.querySelector('meta[http-equiv="Content-Security-Policy"]')?.getAttribute("content") ?? "",
    }));
    expect(state).toMatchObject({ pwned: undefined, imgs: 0, scripts: 2 });
    expect(state.csp).toContain("default-src 'none'");
    expect(dialogs).toEqual([]);
    await browser.screenshot("share-05-hostile-1280");
    expect(requests).toEqual([]);
  });

  it("is what `hopscope export <id> --format html --out FILE` writes", async () => {
    const list = (await (await fetch(`${stack.uiUrl}/api/traces`)).json()) as {
      traces: { id: string; name: string }[];
    };
    const id = list.traces.find((t) => t.name === "buy milk (the article's trace, Ollama 0.13.5)")?.id;
    if (!id) throw new Error("the imported article trace is not listed");
    const out = join(dir, "cli.html");
    const stderr = await new Promise<string>((resolve, reject) =>
      execFile(
        "npx",
        ["tsx", "scripts/hopscope.ts", "export", id, "--format", "html", "--out", out],
        { cwd: join(import.meta.dirname, "../.."), env: { ...process.env, HOPSCOPE_URL: stack.uiUrl } },
        (err, _stdout, err2) => (err ? reject(new Error(`${err.message}\n${err2}`)) : resolve(err2)),
      ),
    );
    expect(stderr).toContain(`wrote ${out}`);
    const html = await readFile(out, "utf8");
    expect(html).toContain('<script type="application/json" id="hopscope-trace">{');
    expect(html).toContain("Content-Security-Policy");
    const { page } = browser;
    await page.goto(`${pathToFileURL(out).href}?hop=6`);
    await page.locator('[data-hop="6"][data-selected="true"]').waitFor();
    expect(requests).toEqual([]);
  });

  it("refuses a 50 MB trace with a message that says what to do, before writing anything", async () => {
    const bundle = parseTraceBundle(JSON.parse(await readFile(ARTICLE, "utf8")));
    const big = "x".repeat(50 * 1024 * 1024);
    const first = bundle.exchanges[0];
    if (!first) throw new Error("the article trace has no exchanges");
    first.responseBody = { encoding: "utf8", data: big, size: big.length, storedSize: big.length, truncated: false };
    let views = 0;
    const refused = await exportHtml(bundle, {
      webDist: suite.ui,
      views: async () => (views++, { views: {}, tokens: {} }),
    }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(HTTPException);
    expect((refused as HTTPException).status).toBe(413);
    expect((refused as Error).message).toMatch(/this trace is 5\d\.\d MB .* export it as a hopscope file instead/);
    expect(views).toBe(0);
    expect(MAX_HTML_TRACE_BYTES).toBeLessThan(50 * 1024 * 1024);
  });
});
