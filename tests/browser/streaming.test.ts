/**
 * Live streaming and the live feed's resilience, against the real stack with a host that streams
 * (AGENT_STREAM) and a stand-in model that types at a human pace: the model's answer is visibly in
 * progress while its chunks arrive, replays at its recorded times, and the page reconnects and
 * catches up after the recorder restarts.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openBrowser, type Browser } from "./support/browser";
import { buildUi } from "./support/build-ui";
import { startRecordedStack, type RecordedStack } from "./support/recorded-stack";

/** Records, in the page, every partial text a streaming arrow or the streaming detail showed. */
function watchStreaming(): void {
  const w = window as unknown as { __streamed: string[] };
  w.__streamed = [];
  new MutationObserver(() => {
    const arrow = document.querySelector('[data-streaming="true"]')?.closest("[data-hop]");
    const detail = document.querySelector('[data-testid="streaming-text"]');
    for (const [where, el] of [["arrow", arrow], ["detail", detail]] as const) {
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
  let ui: Awaited<ReturnType<typeof buildUi>>;
  let stack: RecordedStack;
  let browser: Browser;

  beforeAll(async () => {
    ui = await buildUi();
    stack = await startRecordedStack({ webDist: ui.dir, stream: true, simTokensPerSecond: 25 });
    browser = await openBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await stack?.close();
    await ui?.remove();
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

  it("replays the streamed answer at its recorded pace, tokens appearing one after another", async () => {
    const { page } = browser;
    // In the page: once a third partial answer is on screen, press Space (pause) so the screenshot
    // shows the replay mid-stream however slow this machine is.
    await page.evaluate(() => {
      const w = window as unknown as { __streamed: string[]; __paused: boolean };
      w.__streamed = [];
      w.__paused = false;
      new MutationObserver(() => {
        const detail = document.querySelector('[data-testid="streaming-text"]');
        if (!detail) return;
        const text = `detail:${detail.textContent ?? ""}`;
        if (!w.__streamed.includes(text)) w.__streamed.push(text);
        if (w.__streamed.length >= 3 && !w.__paused) {
          w.__paused = true;
          window.dispatchEvent(new KeyboardEvent("keydown", { key: " " }));
        }
      }).observe(document.body, { subtree: true, childList: true, characterData: true });
    });
    await page.locator("body").click({ position: { x: 5, y: 400 } });
    await page.keyboard.press("3"); // the "What the model wrote" tab, where the tokens arrive
    await page.keyboard.press("r");
    await page.keyboard.press(" ");
    await expect.poll(() => page.evaluate(() => (window as unknown as { __paused: boolean }).__paused), { timeout: 30_000 }).toBe(true);
    expect(await page.getByTestId("play").textContent()).toContain("Replay"); // paused
    await browser.screenshot("31-replay-streaming");
    await page.keyboard.press(" ");
    await expect.poll(() => page.getByTestId("hop-position").textContent(), { timeout: 30_000 }).toContain("hop 8 / 8");
    const seen = await streamed(browser);
    expect(seen.length).toBeGreaterThanOrEqual(3);
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
    const res = await fetch(`${stack.uiUrl}/api/ask`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ message: "What's in my notes?" }) });
    expect(res.status).toBe(200);
    await res.arrayBuffer();
    await expect.poll(() => page.getByTestId("trace-list").locator("li").count()).toBe(before + 1);
    expect(browser.pageErrors.filter((e) => !e.includes("WebSocket") && !e.includes("ERR_CONNECTION_REFUSED"))).toEqual([]);
  });
});
