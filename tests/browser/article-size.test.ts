/**
 * The article's question at its own size, at the stand-in's normal pace, with a workshop lesson on: following live
 * reaches the model's answer while it is still being written (the dwells give way to a streaming hop); at 1280×720
 * the lesson badge does not cover the "live" badge; hop 6's diff shows the new tool result above the fold.
 */
import { describe, expect, it } from "vitest";
import { browserSuite } from "./support/suite";

type Seen = { selected: string; caption: string };

/** Records every (selected hop, caption) the page shows. */
function watchSelection(): void {
  const w = window as unknown as { __seen: Seen[] };
  w.__seen = [];
  new MutationObserver(() => {
    const selected =
      (document.querySelector('[data-hop][data-selected="true"]') as HTMLElement | null)?.dataset.hop ?? "";
    const caption = document.querySelector('[data-testid="hop-detail"] [data-testid="caption"]')?.textContent ?? "";
    const last = w.__seen.at(-1);
    if (!last || last.selected !== selected || last.caption !== caption) w.__seen.push({ selected, caption });
  }).observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true });
}

const overlaps = (a: DOMRect | null, b: DOMRect | null) =>
  !!a && !!b && a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;

describe("the article's question, at its size", () => {
  // The stand-in at the pace `npm start` gives it (30 tokens/s): the answer streams for well under a second.
  const suite = browserSuite({
    stack: { stream: true, simTokensPerSecond: 30, lesson: "write-instead-of-append" },
    colorScheme: "dark",
  });

  it(
    "following live shows the answer while it streams; the badges keep apart; hop 6's new result is in view",
    {
      timeout: 120_000,
    },
    async () => {
      const { page } = suite.browser;
      await page.goto(suite.stack.uiUrl);
      await page.locator('[data-testid="connection"][data-state="live"]').waitFor();
      await page.locator('[data-testid="follow-live"][data-on="true"]').waitFor();
      await page.evaluate(watchSelection);
      await page.fill("#ask-input", "Add buy milk to my notes");
      await page.getByRole("button", { name: "Ask", exact: true }).click();
      await page.locator('[data-hop="8"][data-selected="true"]').waitFor({ timeout: 60_000 });
      const seen = await page.evaluate(() => (window as unknown as { __seen: Seen[] }).__seen);
      // Hop 7, the answer in words, was on screen while its tokens were still arriving.
      expect(seen.some((s) => s.selected === "7" && /The model is writing words/.test(s.caption))).toBe(true);

      const rect = (sel: string) => page.locator(sel).evaluate((el) => el.getBoundingClientRect().toJSON() as DOMRect);
      const lesson = await rect('[data-testid="lesson-badge"]');
      const live = await rect('[data-testid="connection"]');
      expect(overlaps(lesson, live)).toBe(false);
      await suite.browser.screenshot("article-01-badges-1280");

      await page.locator('[data-hop="6"]').click();
      const diff = page.getByTestId("diff");
      await diff.waitFor();
      const fresh = diff.locator('[data-status="new"]').last();
      const box = await fresh.evaluate((el) => el.getBoundingClientRect().toJSON() as DOMRect);
      expect(box.top).toBeLessThan(720 - 40);
      expect(await fresh.textContent()).toContain('"role": "tool"');
      await suite.browser.screenshot("article-02-hop6-diff-1280");
      await page.setViewportSize({ width: 1920, height: 1080 });
      await suite.browser.screenshot("article-03-hop6-diff-1920");
      await page.setViewportSize({ width: 1280, height: 720 });
    },
  );
});
