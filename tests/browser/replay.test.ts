/**
 * Saving, reopening and replaying a trace with the keyboard, and presenting it: a trace recorded from
 * the real stack is saved to traces/, the page is reloaded from its URL (which keeps trace and hop),
 * replayed hop by hop and played through, then shown in presenter mode.
 */
import { readdir } from "node:fs/promises";
import { beforeAll, describe, expect, it } from "vitest";
import type { Browser } from "./support/browser";
import { browserSuite } from "./support/suite";
import { autoReplayToEnd } from "./support/replay-to-end";
import type { RecorderStack } from "../support/recorder-stack";

async function visibleHops(browser: Browser): Promise<string[]> {
  return browser.page
    .locator("[data-hop]")
    .evaluateAll((rows) => rows.map((r) => (r as HTMLElement).dataset.hop ?? ""));
}

describe("save, reload, replay and present a trace", () => {
  const suite = browserSuite();
  let stack: RecorderStack;
  let browser: Browser;

  beforeAll(async () => {
    ({ stack, browser } = suite);
    const res = await fetch(`${stack.uiUrl}/api/ask`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ message: "Add buy milk to my notes" }),
    });
    expect(res.status).toBe(200);
  });

  it("opens the trace from the list and saves it to traces/", async () => {
    const { page } = browser;
    await page.goto(stack.uiUrl);
    await page.getByTestId("trace-list").getByText("Add buy milk to my notes").click();
    await page.locator('[data-hop="8"]').waitFor();
    await page.getByTestId("save-trace").click();
    await page.getByTestId("saved-list").waitFor();
    const files = await readdir(stack.tracesDir);
    expect(files.some((f) => f.endsWith(".hopscope.json"))).toBe(true);
    await browser.screenshot("10-saved-dark");
  });

  it("reopens the same trace and hop from its URL after a reload", async () => {
    const { page } = browser;
    await page.locator('[data-hop="5"]').click();
    await expect.poll(() => page.evaluate(() => location.hash)).toMatch(/\/hop\/5$/);
    const url = page.url();
    await page.reload();
    await page.locator('[data-hop="5"][data-selected="true"]').waitFor();
    expect(page.url()).toBe(url);
    expect(await page.getByTestId("caption").textContent()).toContain("append");
  });

  it("replays with the keyboard: r restarts, j steps forward, k steps back, Space shows the next hop, m and Space auto-advance to the end", async () => {
    const { page } = browser;
    await page.locator("body").click({ position: { x: 5, y: 700 } });
    await page.keyboard.press("r");
    await expect.poll(() => visibleHops(browser)).toEqual(["1"]);
    await page.keyboard.press("j");
    await page.keyboard.press("j");
    await expect.poll(() => visibleHops(browser)).toEqual(["1", "2", "3"]);
    expect(await page.getByTestId("hop-position").textContent()).toContain("hop 3 / 8");
    await browser.screenshot("11-replay-step-3");
    await page.keyboard.press("k");
    await expect.poll(() => page.getByTestId("hop-position").textContent()).toContain("hop 2 / 8");
    // Step mode (the default): Space shows the next hop.
    await page.keyboard.press(" ");
    await expect.poll(() => page.getByTestId("hop-position").textContent()).toContain("hop 3 / 8");
    // Auto-advance at 4×, going on with Space whenever it holds at a key hop.
    await autoReplayToEnd(page, 8);
    await expect.poll(() => visibleHops(browser)).toHaveLength(8);
    await page.keyboard.press("?");
    await page.getByTestId("help").waitFor();
    await browser.screenshot("12-help-overlay");
    await page.keyboard.press("Escape");
    expect(await page.getByTestId("help").count()).toBe(0);
  });

  it("presents one hop at a time in large type, with its caption", async () => {
    const { page } = browser;
    await page.keyboard.press("p");
    await page.getByTestId("presenter").waitFor();
    await expect.poll(() => page.evaluate(() => location.hash)).toMatch(/\/present$/);
    await page.keyboard.press("g");
    await page.keyboard.press("ArrowRight");
    await page.keyboard.press("ArrowRight");
    await page.keyboard.press("ArrowRight");
    await expect.poll(() => page.getByTestId("caption").textContent()).toContain("The model asks for a tool");
    await expect.poll(() => page.getByTestId("presenter-output").textContent()).toContain("<tool_call>");
    const fontSize = await page.evaluate(() => getComputedStyle(document.documentElement).fontSize);
    expect(parseFloat(fontSize)).toBeGreaterThanOrEqual(18);
    await browser.screenshot("13-presenter-hop-4");
    await page.keyboard.press("ArrowLeft");
    await expect.poll(() => page.getByTestId("caption").textContent()).toContain("The host asks the model");
    await browser.screenshot("14-presenter-hop-3");
    await page.keyboard.press("Escape");
    await page.keyboard.press("Escape");
    await page.getByTestId("hop-detail").waitFor();
  });

  it("renames the trace, exports it in five formats, and imports the exported file", async () => {
    const { page } = browser;
    await page.getByTestId("trace-name").click();
    await page.getByLabel("Trace name").fill("Buy milk, step by step");
    await page.getByRole("button", { name: "Rename" }).click();
    await expect.poll(() => page.getByTestId("trace-list").getByText("Buy milk, step by step").count()).toBe(1);
    await page.getByText("Export", { exact: true }).click();
    const links = await page
      .locator('a[href*="/export?format="]')
      .evaluateAll((as) => as.map((a) => (a as HTMLAnchorElement).href));
    expect(links.map((l) => new URL(l).searchParams.get("format"))).toEqual([
      "hopscope",
      "har",
      "otlp",
      "mermaid",
      "html",
    ]);
    for (const link of links) {
      const res = await fetch(link);
      expect(res.status, link).toBe(200);
      await res.arrayBuffer();
    }
    const file = Buffer.from(await (await fetch(links[0]!)).arrayBuffer());
    const before = await page.getByTestId("trace-list").locator("button[data-trace]").count();
    await page
      .getByTestId("import-input")
      .setInputFiles({ name: "buy-milk.hopscope.json", mimeType: "application/json", buffer: file });
    await expect.poll(() => page.getByTestId("trace-list").locator("button[data-trace]").count()).toBe(before + 1);
    await page.locator('[data-hop="8"]').waitFor();
    // A second copy of the same file: two entries whose text is the same (name, times, source), told apart by id.
    await page
      .getByTestId("import-input")
      .setInputFiles({ name: "buy-milk.hopscope.json", mimeType: "application/json", buffer: file });
    await expect.poll(() => page.getByTestId("trace-list").locator("button[data-trace]").count()).toBe(before + 2);
    await page.locator('[data-hop="8"]').waitFor();
    // ] and [ walk the traces list from the keyboard, in the order it shows. A trace is known by its id: an
    // entry's text is not unique (copies) and changes by itself (the outcome is learnt in the background),
    // which made this test flaky when it compared texts.
    const current = () =>
      page.getByTestId("trace-list").locator('button[aria-current="true"]').getAttribute("data-trace");
    const order = () =>
      page
        .getByTestId("trace-list")
        .locator("button[data-trace]")
        .evaluateAll((bs) => bs.map((b) => b.getAttribute("data-trace") ?? ""));
    // Leave the file input without clicking the page (a click could land on a trace in the list).
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    const ids = await order();
    const start = ids.indexOf((await current()) ?? "");
    expect(start).toBeGreaterThanOrEqual(0);
    // From the open trace, [ walks up the list to its top, one entry per press, then stays there …
    for (let i = start - 1; i >= -1; i--) {
      await page.keyboard.press("[");
      await expect.poll(current).toBe(ids[Math.max(0, i)]);
    }
    // … and ] walks down every entry to the bottom (both imported copies included), then stays there.
    for (let i = 1; i <= ids.length; i++) {
      await page.keyboard.press("]");
      await expect.poll(current).toBe(ids[Math.min(ids.length - 1, i)]);
    }
    expect(await order()).toEqual(ids);
  });

  it("loads the saved file back as an imported trace", async () => {
    const { page } = browser;
    const before = await page.getByTestId("trace-list").locator("button[data-trace]").count();
    await page.getByTestId("saved-list").locator("button").first().click();
    await expect.poll(() => page.getByTestId("trace-list").locator("button[data-trace]").count()).toBe(before + 1);
    // The loaded copy is the one open now.
    await expect
      .poll(() => page.getByTestId("trace-list").locator('button[aria-current="true"]').textContent())
      .toContain("imported");
    await page.locator('[data-hop="8"]').waitFor();
  });

  it("deletes the open trace after asking for confirmation", async () => {
    const { page } = browser;
    const before = await page.getByTestId("trace-list").locator("button[data-trace]").count();
    page.once("dialog", (d) => void d.accept());
    await page.getByRole("button", { name: "Delete" }).click();
    await expect.poll(() => page.getByTestId("trace-list").locator("button[data-trace]").count()).toBe(before - 1);
    await page.getByText("Open a trace, or ask something new").waitFor();
    expect(browser.pageErrors).toEqual([]);
  });
});
