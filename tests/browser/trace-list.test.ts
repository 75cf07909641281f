/**
 * The traces list for real use, against the real stack: a second question asked from the ask box as the next
 * turn of the open conversation is grouped under the first; each entry says its question, time, outcome and
 * source; search filters; imported traces sit apart; the list is resizable from the mouse and the keyboard.
 */
import { describe, expect, it } from "vitest";
import { browserSuite } from "./support/suite";

describe("the traces list and continuing a conversation", () => {
  const suite = browserSuite();

  it("the lesson badge follows the running host: a model call from another client with another lesson shows up without a reload", async () => {
    const { browser, stack } = suite;
    const { page } = browser;
    await page.goto(stack.uiUrl);
    await page.getByTestId("model-badge").waitFor();
    expect(await page.getByText("lesson:").count()).toBe(0);
    // A host started with AGENT_LESSON=loop sends this header on its model calls; here one call made directly.
    const config = (await (await fetch(`${stack.uiUrl}/api/config`)).json()) as { modelTapUrl: string };
    const res = await fetch(`${config.modelTapUrl}/api/chat`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-hopscope-lesson": "loop" },
      body: JSON.stringify({
        model: "qwen2.5:7b",
        stream: false,
        messages: [{ role: "user", content: "lesson probe" }],
      }),
    });
    expect(res.status).toBe(200);
    await res.arrayBuffer();
    await expect.poll(() => page.getByText("lesson: loop").count(), { timeout: 10_000 }).toBe(1);
  });

  it("continues the open conversation from the ask box and groups its turns", async () => {
    const { browser } = suite;
    const { page } = browser;
    await page.fill("#ask-input", "Add buy milk to my notes");
    await page.getByRole("button", { name: "Ask", exact: true }).click();
    await page.locator('[data-hop="8"]').waitFor();
    const box = page.getByTestId("continue-conversation");
    await box.waitFor();
    await box.check();
    await page.fill("#ask-input", "What is in my notes?");
    await page.getByRole("button", { name: "Ask", exact: true }).click();
    const group = page.locator("[data-conversation]");
    await expect.poll(() => group.locator("button[data-trace]").count(), { timeout: 20_000 }).toBe(2);
    expect(await group.locator("button[data-trace]").allTextContents()).toEqual([
      expect.stringMatching(/turn 1.*Add buy milk to my notes/),
      expect.stringMatching(/turn 2.*What is in my notes\?/),
    ]);
    // The second turn's question went to the host with the conversation: the host says so, and resent the history.
    await group.locator("button[data-trace]").nth(1).click();
    await page.locator('[data-hop="1"]').click();
    await page.getByTestId("hop-detail").getByText("Continuing conversation").waitFor();
    const firstModelRequest = page.locator('[data-kind="model-request"]').first();
    expect(await firstModelRequest.textContent()).toMatch(/[3-9] msg/);
    await expect.poll(() => group.locator('[data-outcome="answered"]').count(), { timeout: 10_000 }).toBe(2);
    expect(await group.locator("button[data-trace]").first().textContent()).toMatch(/live/);
    await browser.screenshot("30-trace-list-conversation");
  });

  it("searches, keeps imported traces apart, and resizes", async () => {
    const { browser, stack } = suite;
    const { page } = browser;
    const list = page.getByTestId("trace-list");
    await page.getByTestId("trace-search").fill("notes?");
    await expect.poll(() => list.locator("button[data-trace]").count()).toBe(1);
    await page.getByTestId("trace-search").fill("");
    await expect.poll(() => list.locator("button[data-trace]").count()).toBe(3);

    const id = await page.locator("[data-conversation] button[data-trace]").first().getAttribute("data-trace");
    const file = Buffer.from(
      await (await fetch(`${stack.uiUrl}/api/traces/${id}/export?format=hopscope`)).arrayBuffer(),
    );
    await page
      .getByTestId("import-input")
      .setInputFiles({ name: "copy.hopscope.json", mimeType: "application/json", buffer: file });
    const imported = page.getByTestId("imported-traces");
    await imported.locator("button[data-trace]").waitFor();
    expect(await imported.locator("button[data-trace]").textContent()).toContain("imported");
    expect(await page.locator("[data-conversation] button[data-trace]").count()).toBe(2);

    const width = () => page.locator('nav[aria-label="Traces"]').evaluate((n) => n.getBoundingClientRect().width);
    const before = await width();
    expect(before).toBeGreaterThan(200);
    const handle = await page.getByTestId("list-resize").boundingBox();
    await page.mouse.move(handle!.x + 2, handle!.y + 200);
    await page.mouse.down();
    await page.mouse.move(handle!.x + 120, handle!.y + 200, { steps: 4 });
    await page.mouse.up();
    await expect.poll(width).toBeGreaterThan(before + 80);
    const dragged = await width();
    await page.getByTestId("list-resize").focus();
    await page.keyboard.press("ArrowLeft");
    await expect.poll(width).toBeLessThan(dragged);
    await browser.screenshot("31-trace-list-imported-resized");
    expect(browser.pageErrors).toEqual([]);
  });
});
