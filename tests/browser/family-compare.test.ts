/**
 * "What the model saw" offers a one-click comparison with each other Ollama family: on today's Ollama (the
 * stand-in's default family) with 0.13.5 (the JSON the article shows, ollama/ollama#14601) and with 0.14 (the same
 * prompt here: its one change, a nested `required`, ollama/ollama#15214, does not touch the notes tools); on a
 * 0.13.5 trace with the two newer families. Real stack, real Chromium.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import type { Browser } from "./support/browser";
import { browserSuite } from "./support/suite";
import { startRecorderStack, type RecorderStack } from "../support/recorder-stack";

const QUESTION = "Add buy milk to my notes";

/** The notes server's five tools: each tool line differs, nothing else does; the older prompt holds the JSON lines. */
async function expectToolLinesDiffer(page: Page): Promise<void> {
  const lines = page.getByTestId("changed-line");
  expect(await lines.count()).toBe(5);
  const append = (await lines.allTextContents()).filter((l) => l.includes('"function": {append '));
  expect(append).toHaveLength(1);
  expect(append[0]).toContain('{"type": "function", "function": {append ');
  expect(append[0]).toContain('{"type": "function", "function": {"name":"append",');
  const older = (await page.getByTestId("other-prompt").textContent()) ?? "";
  expect(older).toContain('{"name":"append","description":');
  expect(older).toContain("Add buy milk to my notes");
}

/** The older prompt is linked to the same request JSON: hovering the user's words there highlights the field. */
async function expectOlderPromptLinked(page: Page): Promise<void> {
  // (Hovered again on each try: under load the first hover can land while the pane is still laying out.)
  const userWords = page.locator('[data-testid="other-prompt"] [data-path="/messages/0/content"]').first();
  const field = page.locator('[data-testid="request-json"] [data-path="/messages/0/content"]').first();
  await expect
    .poll(
      async () => {
        await page.mouse.move(0, 0);
        await userWords.hover();
        return (await field.getAttribute("class")) ?? "";
      },
      { timeout: 15_000 },
    )
    .toMatch(/\S/);
}

describe("comparing what the model saw with an older Ollama family", () => {
  const suite = browserSuite({ stack: false, colorScheme: "light" });
  let browser: Browser;
  const stacks: RecorderStack[] = [];

  beforeAll(() => {
    browser = suite.browser;
  });
  afterAll(async () => {
    for (const s of stacks) await s.close();
  });

  async function openFirstPrompt(stack: RecorderStack): Promise<void> {
    await stack.ask(QUESTION);
    const trace = await stack.waitForTrace(QUESTION);
    await browser.page.goto(`${stack.uiUrl}/#/trace/${trace.id}/hop/3`);
    await browser.page.getByTestId("rendered-prompt").waitFor();
  }

  it("shows today's struct dump, and 0.13.5's JSON tool lines one click away, with the reason", async () => {
    const stack = await startRecorderStack({ webDist: suite.ui });
    stacks.push(stack);
    const { page } = browser;
    await openFirstPrompt(stack);
    expect(await page.getByTestId("rendered-prompt").textContent()).toContain(
      '{"type": "function", "function": {append ',
    );
    expect(await page.getByTestId("ollama-family").textContent()).toBe(" — the Ollama 0.20+ (today's) family");
    const compare = page.getByTestId("family-compare");
    expect(await compare.textContent()).toContain("ollama/ollama#14601");
    expect(await compare.getByRole("link", { name: "ollama/ollama#14601" }).getAttribute("href")).toBe(
      "https://github.com/ollama/ollama/issues/14601",
    );
    expect(await page.getByTestId("other-family").count()).toBe(0);
    // The choice: one button per other family; 0.14 renders these tools the same.
    expect(await compare.getByRole("button").allTextContents()).toEqual([
      "Compare with Ollama 0.13.5",
      "Compare with Ollama 0.14.0 (same)",
    ]);

    const button = page.getByRole("button", { name: "Compare with Ollama 0.13.5" });
    await button.click();
    await page.getByTestId("other-family").waitFor();
    // Opening it shows it: the panel's top is on screen, not scrolled away.
    await expect.poll(async () => (await page.getByTestId("other-family").boundingBox())?.y ?? -1).toBeGreaterThan(0);
    expect((await page.getByTestId("other-family").boundingBox())!.y).toBeLessThan(720 - 100);
    // The reason that applies, and the one between the families that does not touch this request.
    expect(await page.getByTestId("reason").allTextContents()).toEqual([
      expect.stringContaining("ollama/ollama#14601: From 0.14.0 Ollama hands the template"),
    ]);
    expect(await page.getByTestId("idle-reason").textContent()).toContain(
      "ollama/ollama#15214 does not touch this request",
    );
    await browser.screenshot("30-family-compare-1280");
    expect(await page.getByRole("button", { name: "Hide Ollama 0.13.5" }).getAttribute("aria-pressed")).toBe("true");
    await expectToolLinesDiffer(page);
    await expectOlderPromptLinked(page);
    await page.setViewportSize({ width: 1920, height: 1080 });
    // The prompt view keeps its own end in view on a resize; bring the comparison back for the picture.
    await page.getByTestId("family-compare").scrollIntoViewIfNeeded();
    await page.getByTestId("family-compare").evaluate((el) => el.scrollIntoView({ block: "start" }));
    await browser.screenshot("30-family-compare-1920");
    await page.setViewportSize({ width: 1280, height: 720 });

    expect(await page.getByTestId("other-family").textContent()).toMatch(
      /now [\d,]+ bytes, [\d,]+ tokens · Ollama 0\.13\.5 [\d,]+ bytes, [\d,]+ tokens/,
    );

    // The other choice: 0.14 renders the same prompt here, and says why.
    await page.getByRole("button", { name: "Compare with Ollama 0.14.0 (same)" }).click();
    await expect.poll(() => page.getByTestId("other-family").getAttribute("data-family")).toBe("0.14");
    expect(await page.getByTestId("same-prompt").textContent()).toBe(
      "Ollama 0.14 renders this request exactly the same: the model would see the same text.",
    );
    expect(await page.getByTestId("changed-line").count()).toBe(0);
    expect(await page.getByRole("button", { name: "Compare with Ollama 0.13.5" }).getAttribute("aria-pressed")).toBe(
      "false",
    );
    await browser.screenshot("30-family-compare-same-1280");
    await page.getByRole("button", { name: "Compare with Ollama 0.13.5" }).click();
    await expect.poll(() => page.getByTestId("other-family").getAttribute("data-family")).toBe("0.13");

    // The dark theme (the header's toggle) for projectors that prefer it.
    await page.getByRole("button", { name: /^Dark/ }).click();
    await expect.poll(() => page.evaluate(() => document.documentElement.dataset.scheme)).toBe("dark");
    await browser.screenshot("30-family-compare-dark-1280");

    // Keyboard: the toggle is a button; Enter closes it again.
    await page.getByRole("button", { name: "Hide Ollama 0.13.5" }).focus();
    await page.keyboard.press("Enter");
    await expect.poll(() => page.getByTestId("other-family").count()).toBe(0);

    // How a live Ollama would check this prompt: the native request as it is, at /api/chat.
    await page.getByTestId("ollama-family").click();
    expect(await page.getByTestId("verify-route").textContent()).toBe(
      "A live Ollama is asked at /api/chat with the client's own request, so Ollama's conversion is checked as well as its render.",
    );
    expect(browser.pageErrors).toEqual([]);
  });

  it("on a trace recorded as 0.13.5, whose tools are JSON, offers the two newer families", async () => {
    const stack = await startRecorderStack({ webDist: suite.ui, sim: { ollamaVersion: "0.13.5" } });
    stacks.push(stack);
    await openFirstPrompt(stack);
    const { page } = browser;
    expect(await page.getByTestId("rendered-prompt").textContent()).toContain(
      '{"type": "function", "function": {"name":"append",',
    );
    expect(await page.getByTestId("ollama-family").textContent()).toBe(" — the Ollama 0.13.5 and earlier family");
    const compare = page.getByTestId("family-compare");
    expect(await compare.getByRole("button").allTextContents()).toEqual([
      "Compare with Ollama 0.14.0",
      "Compare with Ollama 0.32.15",
    ]);
    await page.getByRole("button", { name: "Compare with Ollama 0.32.15" }).click();
    await expect.poll(() => page.getByTestId("other-family").getAttribute("data-family")).toBe("0.20+");
    const lines = await page.getByTestId("changed-line").allTextContents();
    expect(lines).toHaveLength(5);
    expect(lines.find((l) => l.includes('"name":"append"'))).toContain('{"type": "function", "function": {append ');
    expect(await page.getByTestId("reason").allTextContents()).toEqual([
      expect.stringContaining("ollama/ollama#14601"),
    ]);
    await browser.screenshot("30-family-compare-newer-1280");
    await page.setViewportSize({ width: 1920, height: 1080 });
    // The prompt view keeps its own end in view on a resize (after a frame or two); bring the comparison back.
    const compareBox = page.getByTestId("family-compare");
    await expect
      .poll(async () => {
        await compareBox.evaluate((el) => el.scrollIntoView({ block: "start" }));
        await page.waitForTimeout(100);
        return (await compareBox.boundingBox())?.y ?? -1;
      })
      .toBeLessThan(300);
    await browser.screenshot("30-family-compare-newer-1920");
    await page.setViewportSize({ width: 1280, height: 720 });
    expect(browser.pageErrors).toEqual([]);
  });
});
