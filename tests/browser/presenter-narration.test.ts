/**
 * Narrating the article's trace from the keyboard alone, against the real stack: step mode, auto-advance
 * holding at the key hops, a clicker's PageDown, and Space on the focused Next button advancing once.
 */
import { beforeAll, describe, expect, it } from "vitest";
import type { Browser } from "./support/browser";
import { articleTraceSuite } from "./support/article-trace";

describe("narrating the article's trace", () => {
  const suite = articleTraceSuite();
  const { present } = suite;
  let browser: Browser;

  beforeAll(() => {
    browser = suite.browser;
  });

  it("narrates from the keyboard: r starts, Space shows one hop (and its caption) per press; auto mode holds at key hops", async () => {
    const { page } = browser;
    await present(1);
    const shown = () =>
      page
        .locator('[role="listitem"][data-hop]')
        .evaluateAll((rows) => rows.map((r) => (r as HTMLElement).dataset.hop));
    await page.keyboard.press("r");
    await expect.poll(shown).toEqual(["1"]);
    expect(await page.getByTestId("replay-status").textContent()).toContain("step mode");
    const captions: string[] = [];
    for (let n = 2; n <= 4; n++) {
      await page.keyboard.press(" ");
      await expect.poll(shown).toHaveLength(n);
      captions.push((await page.getByTestId("caption").textContent()) ?? "");
    }
    expect(captions[0]).toContain("which tools it has");
    expect(captions[1]).toContain("The host asks the model");
    expect(captions[2]).toContain("The model asks for a tool");
    await browser.screenshot("25-narrated-step-hop-4");
    // Auto-advance at 4×: goes on by itself, then holds at the next key hop (6, the resent request).
    await page.keyboard.press("m");
    await page.keyboard.press("f");
    await page.keyboard.press("f");
    await page.keyboard.press("f");
    await page.keyboard.press(" ");
    await expect
      .poll(() => page.getByTestId("replay-status").textContent(), { timeout: 15_000 })
      .toContain("paused at key hop 6");
    expect(await shown()).toEqual(["1", "2", "3", "4", "5", "6"]);
    await page.keyboard.press(" ");
    await expect.poll(shown, { timeout: 15_000 }).toHaveLength(8);
    // A speaker who stepped to hop 5 with the arrows and then presses Space narrates on from there.
    await present(5);
    await page.reload();
    await page.locator('[data-hop="5"][data-selected="true"]').waitFor();
    await page.keyboard.press(" ");
    await expect.poll(shown).toEqual(["1", "2", "3", "4", "5", "6"]);
    expect(await page.getByTestId("caption").textContent()).toContain("resending everything");
    // A presentation clicker sends PageDown.
    await page.keyboard.press("PageDown");
    await expect.poll(shown).toHaveLength(7);
    // Space while the Next button has focus advances once, not twice (the key and the button's click).
    await page.keyboard.press("Escape");
    await page.getByTestId("hop-detail").waitFor();
    for (const _ of [6, 5]) await page.keyboard.press("k");
    await expect.poll(shown).toHaveLength(5);
    await page.getByTestId("play").click();
    await expect.poll(shown).toHaveLength(6);
    await page.keyboard.press(" ");
    await expect.poll(shown).toHaveLength(7);
    await page.waitForTimeout(300);
    expect(await shown()).toHaveLength(7);
    expect(browser.pageErrors).toEqual([]);
  });
});
