/**
 * A real agent's run as a learner sees it, in real Chromium at 1920×1080 and 1280×720: Claude Code asked "Add buy
 * milk to my notes" through the taps is one trace named by the question, whose timeline shows the
 * `tools/call append` and the notes file gaining "buy milk", with no hop flagged as an error.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { agentScenario, QUESTION } from "../support/agent-e2e";
import type { Browser } from "./support/browser";
import { browserSuite } from "./support/suite";

describe("Claude Code's run in the timeline", () => {
  const suite = browserSuite({ stack: false, colorScheme: "dark" });
  let browser: Browser;
  beforeAll(() => {
    browser = suite.browser;
  });
  const s = agentScenario("claude-code", () => ({ webDist: suite.ui }));

  for (const [width, height] of [
    [1920, 1080],
    [1280, 720],
  ] as const) {
    it(`shows one trace named by the question, the tools/call and the note, nothing red (${width}×${height})`, async () => {
      const { page } = browser;
      await page.setViewportSize({ width, height });
      const runs = s.traces.map((t) => `"${t.name}" (${t.exchanges.length} exchanges)`).join(", ");
      const trace = s.traces.find((t) => t.name === QUESTION);
      await page.goto(`${s.stack.uiUrl}/#/trace/${trace?.id ?? s.traces[0]?.id ?? ""}`);
      await page.getByTestId("trace-list").waitFor();
      await browser.screenshot(`agent-claude-code-trace-${width}`);
      expect(await page.getByTestId("trace-list").locator("li").count(), `traces: ${runs}`).toBe(1);
      expect(await page.getByTestId("trace-list").textContent()).not.toMatch(/\berror\b/);
      await expect.poll(() => page.getByTestId("trace-name").textContent()).toBe(QUESTION);
      const call = page.locator("[data-hop][data-kind]").filter({ hasText: /tools\/call/ });
      expect(await call.count(), "a tools/call hop").toBeGreaterThan(0);
      await call.first().click();
      await expect.poll(() => page.getByTestId("hop-detail").textContent()).toMatch(/buy milk/);
      await browser.screenshot(`agent-claude-code-tools-call-${width}`);
      expect(await page.locator('[data-hop][data-outcome="error"]').count(), "hops flagged as errors").toBe(0);
      expect(browser.pageErrors).toEqual([]);
    });
  }
});
