/**
 * A workshop lesson on screen: with the stand-in model's "missing-argument" lesson the model forgets
 * an argument, the MCP server answers with a tool error (a result with isError, meant for the model),
 * and the model retries. The timeline names the lesson and marks the tool error apart from failures.
 */
import { beforeAll, describe, expect, it } from "vitest";
import type { Browser } from "./support/browser";
import { browserSuite } from "./support/suite";
import type { RecorderStack } from "../support/recorder-stack";

describe("a lesson: the model forgets an argument", () => {
  const suite = browserSuite({ stack: { lesson: "missing-argument" } });
  let stack: RecorderStack;
  let browser: Browser;

  beforeAll(async () => {
    ({ stack, browser } = suite);
  });

  it("marks the tool error as a tool error, explains it, and names the lesson", async () => {
    const { page } = browser;
    await page.goto(stack.uiUrl);
    await page.locator('[data-testid="connection"][data-state="live"]').waitFor();
    await page.fill("#ask-input", "Add buy milk to my notes");
    await page.keyboard.press("Enter");
    const toolError = page.locator('[data-hop][data-outcome="tool-error"]').first();
    await toolError.waitFor({ timeout: 30_000 });
    expect(await toolError.textContent()).toContain("tool error");
    expect(await page.locator('[data-hop][data-outcome="error"]').count()).toBe(0);
    await toolError.click();
    const mcp = page.getByTestId("mcp-view");
    await mcp.waitFor();
    expect(await mcp.locator('[data-outcome="tool-error"]').textContent()).toBe("tool error");
    expect(await page.getByTestId("caption").textContent()).toContain("Tool error");
    await expect.poll(() => page.getByText("lesson: missing-argument").count()).toBe(1);
    await browser.screenshot("40-lesson-tool-error");
    expect(browser.pageErrors).toEqual([]);
  });

  it("on stage, the tool error hop shows the call, the error text and which kind of error it is", async () => {
    const { page } = browser;
    await page.keyboard.press("p");
    const focus = page.getByTestId("presenter-focus");
    await focus.getByTestId("presenter-result").waitFor();
    expect(await focus.textContent()).toContain("Tool error (for the model)");
    expect(await focus.locator('[data-outcome="tool-error"]').textContent()).toMatch(
      /tool error:.*isError: true.*the model can correct/,
    );
    await browser.screenshot("41-presenter-tool-error");
  });
});
