/**
 * The timeline with hostile and heavy recordings, built from a real recorded trace (exported by the
 * recorder, then grown): a body with markup and a script renders as text and runs nothing; a trace
 * with 1,000 exchanges renders only the rows in view; a 10 MB body is shown cut, with "show all".
 */
import { beforeAll, describe, expect, it } from "vitest";
import { TraceBundleSchema, type TraceBundle } from "@hopscope/shared/trace/bundle";
import { TraceSummarySchema, type Exchange } from "@hopscope/shared/trace/schemas";
import type { Browser } from "./support/browser";
import { browserSuite } from "./support/suite";
import type { RecorderStack } from "../support/recorder-stack";

const HOSTILE = `<script>window.__pwned = 1</script><img src=x onerror="window.__pwned = 2"> add buy milk`;

async function ask(stack: RecorderStack, message: string): Promise<void> {
  const res = await fetch(`${stack.uiUrl}/api/ask`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ message }),
  });
  expect(res.status).toBe(200);
  await res.arrayBuffer();
}

async function exportBundle(stack: RecorderStack, name: string): Promise<TraceBundle> {
  const list = (await (await fetch(`${stack.uiUrl}/api/traces`)).json()) as { traces: { id: string; name: string }[] };
  const t = list.traces.find((x) => x.name.includes(name));
  if (!t) throw new Error(`no trace named like ${name}: ${JSON.stringify(list)}`);
  const res = await fetch(`${stack.uiUrl}/api/traces/${t.id}/export?format=hopscope`);
  return TraceBundleSchema.parse(await res.json());
}

async function importBundle(stack: RecorderStack, bundle: TraceBundle): Promise<string> {
  const res = await fetch(`${stack.uiUrl}/api/import`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(bundle),
  });
  const body = await res.text();
  expect(res.status, body).toBe(200);
  return TraceSummarySchema.parse(JSON.parse(body)).id;
}

/** The recorded trace repeated until it has `count` exchanges, each copy later than the one before. */
function grow(bundle: TraceBundle, count: number): TraceBundle {
  const src = bundle.exchanges;
  const span =
    Math.max(...src.map((x) => x.timings.end ?? x.timings.start)) - Math.min(...src.map((x) => x.timings.start)) + 5;
  const exchanges: Exchange[] = [];
  for (let i = 0; exchanges.length < count; i++) {
    for (const x of src) {
      if (exchanges.length >= count) break;
      const shift = (t: number | null) => (t === null ? null : t + i * span);
      const id = exchanges.length + 1;
      exchanges.push({
        ...x,
        id,
        seq: id,
        timings: {
          start: x.timings.start + i * span,
          requestEnd: shift(x.timings.requestEnd),
          firstByte: shift(x.timings.firstByte),
          end: shift(x.timings.end),
        },
      });
    }
  }
  const { links: _links, exchanges: _xs, ...trace } = bundle.trace;
  return {
    ...bundle,
    trace: {
      ...trace,
      name: `${trace.name} ×${count}`,
      exchangeCount: count,
      exchanges: exchanges.map(
        ({ requestHeaders: _a, responseHeaders: _b, requestBody: _c, responseBody: _d, chunks: _e, ...s }) => s,
      ),
      links: [],
    },
    exchanges,
  };
}

describe("hostile and heavy recordings", () => {
  const suite = browserSuite({ colorScheme: "light" });
  let stack: RecorderStack;
  let browser: Browser;
  let recorded: TraceBundle;

  beforeAll(async () => {
    ({ stack, browser } = suite);
    await ask(stack, HOSTILE);
    recorded = await exportBundle(stack, "script");
  });

  it("shows a body containing <script> and an onerror handler as text, and runs neither", async () => {
    const { page } = browser;
    await page.goto(stack.uiUrl);
    await page.getByTestId("trace-list").getByText("window.__pwned").first().click();
    await page.locator('[data-hop="1"]').click();
    expect(await page.getByText("You asked").count()).toBe(1);
    await page.locator('[data-tab="wire"]').click();
    const body = page.getByTestId("body").first();
    await body.waitFor();
    expect(await body.textContent()).toContain("<script>window.__pwned = 1</script>");
    expect(await page.locator('[data-testid="body"] script, [data-testid="body"] img').count()).toBe(0);
    await page.locator('[data-hop="3"]').click();
    await page.locator('[data-tab="saw"]').click(); // the Wire tab chosen above stays selected otherwise
    await page.getByTestId("rendered-prompt").waitFor();
    expect(await page.getByTestId("rendered-prompt").textContent()).toContain("<img src=x onerror=");
    expect(
      await page.locator('[data-testid="rendered-prompt"] img, [data-testid="rendered-prompt"] script').count(),
    ).toBe(0);
    expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
    await browser.screenshot("20-script-as-text");
  });

  it("renders a 1,000-exchange trace a screenful at a time, and scrolls to its last hop", async () => {
    const { page } = browser;
    const id = await importBundle(stack, grow(recorded, 1000));
    await page.goto(`${stack.uiUrl}/#/trace/${id}/hop/1`);
    await page.locator('[data-hop="1"]').waitFor();
    const rendered = await page.locator("[data-hop]").count();
    expect(rendered).toBeGreaterThan(3);
    expect(rendered).toBeLessThan(60);
    await page.locator("body").click({ position: { x: 5, y: 700 } });
    await page.keyboard.press("G");
    const last = await page.getByTestId("hop-position").textContent();
    const lastHop = /\/ (\d+)/.exec(last ?? "")?.[1];
    expect(Number(lastHop)).toBeGreaterThan(1000);
    await page.locator(`[data-hop="${lastHop}"]`).waitFor();
    expect(await page.locator("[data-hop]").count()).toBeLessThan(60);
    await browser.screenshot("21-thousand-exchanges");
  });

  it("cuts a 10 MB body to a readable size until asked to show all", async () => {
    const { page } = browser;
    const big = structuredClone(recorded);
    const agent = big.exchanges.find((x) => x.tap === "agent");
    if (!agent?.responseBody) throw new Error("the recorded trace has no agent response body");
    const line = `${"buy milk, ".repeat(9)}<b>not bold</b>\n`;
    const data = line.repeat(Math.ceil((10 * 1024 * 1024) / line.length));
    agent.responseBody = {
      encoding: "utf8",
      data,
      size: data.length,
      storedSize: data.length,
      truncated: false,
      contentType: "text/plain",
    };
    agent.responseSize = data.length;
    big.trace = { ...big.trace, name: "ten megabytes" };
    const id = await importBundle(stack, big);
    await page.goto(`${stack.uiUrl}/#/trace/${id}/hop/8`);
    await page.locator('[data-tab="wire"]').click();
    const more = page.getByRole("button", { name: /show all/ });
    await more.waitFor({ timeout: 30_000 });
    const shown = await page
      .getByTestId("body")
      .first()
      .evaluate((el) => el.textContent?.length ?? 0);
    expect(shown).toBeLessThan(300_000);
    expect(await page.locator('[data-testid="body"] b').count()).toBe(0);
    await browser.screenshot("22-ten-megabytes");
    await more.click();
    await expect
      .poll(
        () =>
          page
            .getByTestId("body")
            .first()
            .evaluate((el) => el.textContent?.length ?? 0),
        { timeout: 30_000 },
      )
      .toBeGreaterThan(10_000_000);
    expect(browser.pageErrors).toEqual([]);
  });
});
