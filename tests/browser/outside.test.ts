/**
 * What a new user hit, trying hopscope from outside (branch `outside`), checked in Debian's Chromium
 * against the real stack: the notes reset reads as a choice ("Reset data/db to …"), not the file's state;
 * Ollama's parsed tool calls show the id and index the response carries; the MCP Inspector's session is
 * not an error for its GET answered 405; the same trace imported twice is not "a conversation · 2 turns".
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { TraceSummarySchema } from "@hopscope/shared/trace/schemas";
import { browserSuite } from "./support/suite";

const TRACES = join(import.meta.dirname, "..", "..", "traces");

describe("from outside", () => {
  const suite = browserSuite();

  async function importFile(name: string): Promise<string> {
    const res = await fetch(`${suite.stack.uiUrl}/api/import`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: await readFile(join(TRACES, name)),
    });
    expect(res.status, await res.clone().text()).toBe(200);
    return TraceSummarySchema.parse(await res.json()).id;
  }

  it(
    "a live question: the reset says what it does, and the parsed tool calls are as on the wire",
    { timeout: 90_000 },
    async () => {
      const { page } = suite.browser;
      await page.goto(suite.stack.uiUrl);
      await page.locator('[data-testid="connection"][data-state="live"]').waitFor();
      const label = page.getByTestId("notes-reset-label");
      expect((await label.textContent())?.replace(/\s+/g, " ")).toMatch(/^Reset …\/data\/db to$/);
      await page.locator("#ask-input").fill("Add buy milk to my notes");
      await page.locator("#ask-input").press("Enter");
      await page.locator('[data-hop="8"][data-selected="true"]').waitFor({ timeout: 30_000 });
      await page.locator('[data-hop="4"]').click();
      await page.locator('[data-tab="wrote"]').click();
      const parsed = page.getByTestId("parsed-tool-calls");
      await expect
        .poll(() => parsed.textContent())
        .toMatch(/"id": "call_[a-z0-9]+",\s+"function": \{\s+"index": 0,\s+"name": "append"/);
      await page.setViewportSize({ width: 1920, height: 1080 });
      await suite.browser.screenshot("outside-01-parsed-1920");
      await page.setViewportSize({ width: 1280, height: 720 });
      await suite.browser.screenshot("outside-02-parsed-1280");
    },
  );

  it(
    "the Inspector's session: its GET answered 405 is no error, and says what it was",
    { timeout: 60_000 },
    async () => {
      const { page } = suite.browser;
      const id = await importFile("inspector-session.hopscope.json");
      const item = page.locator(`[data-trace="${id}"]`);
      await item.click();
      const get = page.locator('[data-hop="3"]');
      await get.waitFor();
      expect(await get.textContent()).toContain("GET /mcp");
      expect(await get.getAttribute("data-outcome")).toBe("ok");
      expect(await page.locator('[data-hop][data-outcome="error"]').count()).toBe(0);
      expect(await item.locator("[data-outcome]").getAttribute("data-outcome")).not.toBe("error");
      await get.click();
      await page.locator('[data-tab="mcp"]').click();
      await expect
        .poll(() => page.getByTestId("hop-detail").textContent())
        .toContain("this server offers none and answers 405 Method Not Allowed");
      await suite.browser.screenshot("outside-03-inspector-get-1280");
    },
  );

  it(
    "the article's trace imported twice: two copies, not one conversation of two turns",
    { timeout: 60_000 },
    async () => {
      const { page } = suite.browser;
      const first = await importFile("buy-milk.hopscope.json");
      const second = await importFile("buy-milk.hopscope.json");
      await page.locator(`[data-trace="${first}"]`).waitFor();
      await page.locator(`[data-trace="${second}"]`).waitFor();
      expect(await page.locator("nav[aria-label=Traces]").textContent()).not.toMatch(/conversation · \d+ turns/i);
      await suite.browser.screenshot("outside-04-copies-1280");
    },
  );
});
