/**
 * Live streaming and the live feed's resilience, against the real stack with a host that streams
 * (AGENT_STREAM) and a stand-in model that types at a human pace: the model's answer is visibly in
 * progress while its chunks arrive, replays at its recorded times, and the page reconnects and
 * catches up after the recorder restarts.
 */
import { beforeAll, describe, expect, it } from "vitest";
import type { Browser } from "./support/browser";
import { browserSuite } from "./support/suite";
import type { RecorderStack } from "../support/recorder-stack";

/** Records, in the page, every partial text a streaming arrow or the streaming detail showed. */
function watchStreaming(): void {
  const w = window as unknown as { __streamed: string[] };
  w.__streamed = [];
  new MutationObserver(() => {
    const arrow = document.querySelector('[data-streaming="true"]')?.closest("[data-hop]");
    const detail = document.querySelector('[data-testid="streaming-text"]');
    for (const [where, el] of [
      ["arrow", arrow],
      ["detail", detail],
    ] as const) {
      if (!el) continue;
      const text = `${where}:${el.textContent ?? ""}`;
      if (!w.__streamed.includes(text)) w.__streamed.push(text);
    }
  }).observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true });
}

async function streamed(browser: Browser): Promise<string[]> {
  return browser.page.evaluate(() => (window as unknown as { __streamed: string[] }).__streamed);
}

describe("streamed answers and reconnecting", () => {
  const suite = browserSuite({ stack: { stream: true, simTokensPerSecond: 25 }, colorScheme: "light" });
  let stack: RecorderStack;
  let browser: Browser;

  beforeAll(async () => {
    ({ stack, browser } = suite);
  });

  it("shows the model's answer arriving chunk by chunk while it streams", async () => {
    const { page } = browser;
    await page.goto(stack.uiUrl);
    await page.locator('[data-testid="connection"][data-state="live"]').waitFor();
    await page.evaluate(watchStreaming);
    await page.fill("#ask-input", "Add buy milk to my notes");
    await page.keyboard.press("Enter");
    await page.locator('[data-hop="8"]').waitFor({ timeout: 30_000 });
    // Several different partial states of a streaming arrow were on screen before the answer was complete.
    const seen = (await streamed(browser)).filter((t) => t.startsWith("arrow:"));
    expect(seen.length).toBeGreaterThan(2);
    await page.locator('[data-hop="4"]').click();
    await page.locator('[data-tab="wire"]').click();
    await expect.poll(() => page.getByText(/streamed chunks over/).count()).toBeGreaterThan(0);
    await browser.screenshot("30-streamed-chunks");
  });

  it("replays the streamed answer at its recorded pace within its hop: step mode, one hop per Space", async () => {
    const { page } = browser;
    await page.evaluate(() => {
      const w = window as unknown as { __streamed: string[] };
      w.__streamed = [];
      new MutationObserver(() => {
        const detail = document.querySelector('[data-testid="streaming-text"]');
        if (!detail) return;
        const text = `detail:${detail.textContent ?? ""}`;
        if (!w.__streamed.includes(text)) w.__streamed.push(text);
      }).observe(document.body, { subtree: true, childList: true, characterData: true });
    });
    await page.locator("body").click({ position: { x: 5, y: 400 } });
    await page.keyboard.press("s"); // 0.5×: the tokens come at half their recorded pace
    await page.keyboard.press("r");
    for (const _ of [2, 3, 4]) await page.keyboard.press(" ");
    await expect.poll(() => page.getByTestId("hop-position").textContent()).toContain("hop 4 / 8");
    // Hop 4 is the model's streamed answer: its text arrives chunk by chunk, then the hop waits for the next press.
    await expect
      .poll(() => streamed(browser), { timeout: 30_000 })
      .toEqual(expect.arrayContaining([expect.stringMatching(/^detail:/)]));
    await browser.screenshot("31-replay-streaming");
    await expect.poll(async () => (await streamed(browser)).length, { timeout: 30_000 }).toBeGreaterThanOrEqual(3);
    await expect
      .poll(() => page.getByTestId("replay-status").textContent(), { timeout: 30_000 })
      .toContain("step mode");
    expect(await page.getByTestId("hop-position").textContent()).toContain("hop 4 / 8");
    for (const _ of [5, 6, 7, 8]) await page.keyboard.press("j");
    await expect.poll(() => page.getByTestId("hop-position").textContent(), { timeout: 30_000 }).toContain("hop 8 / 8");
  });

  it("reconnects after the recorder restarts and catches up on what happened meanwhile", async () => {
    const { page } = browser;
    await page.keyboard.press("Escape");
    const before = await page.getByTestId("trace-list").locator("li").count();
    await stack.stopRecorder();
    await page.locator('[data-testid="connection"][data-state="reconnecting"]').waitFor();
    await browser.screenshot("32-reconnecting");
    await stack.startRecorder();
    await page.locator('[data-testid="connection"][data-state="live"]').waitFor({ timeout: 20_000 });
    const res = await fetch(`${stack.uiUrl}/api/ask`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ message: "What's in my notes?" }),
    });
    expect(res.status).toBe(200);
    await res.arrayBuffer();
    await expect.poll(() => page.getByTestId("trace-list").locator("li").count()).toBe(before + 1);
    // While the recorder is down the page may log its failed requests (the badges' /api/config poll, or an
    // exchange's views still being built, can be cut mid-request, or refused); anything else is a bug.
    const downErrors = [
      /WebSocket/,
      /ERR_CONNECTION_REFUSED/,
      /ERR_CONNECTION_RESET/,
      /\/api\/config failed/,
      // The views as the timeline asks for them (lean), and their token ids and families asked after them.
      /\/(views|tokens|families)(\?\S*)? failed: TypeError: Failed to fetch/,
    ];
    expect(browser.pageErrors.filter((e) => !downErrors.some((d) => d.test(e)))).toEqual([]);
  });
});
