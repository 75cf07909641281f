/**
 * The timeline against the real stack (MCP server, stand-in model, recorder, host; all on loopback):
 * ask "Add buy milk to my notes" in the ask box and watch the article's hops arrive, read what the
 * model saw and wrote, and follow "buy milk" across the hops.
 */
import { beforeAll, describe, expect, it } from "vitest";
import type { Browser } from "./support/browser";
import { browserSuite } from "./support/suite";
import type { RecorderStack } from "../support/recorder-stack";

describe("asking the agent from the timeline", () => {
  const suite = browserSuite({ colorScheme: "light" });
  let stack: RecorderStack;
  let browser: Browser;

  beforeAll(async () => {
    ({ stack, browser } = suite);
  });

  it("shows an empty state that says what to do, then the hops of the article's trace in order", async () => {
    const { page } = browser;
    await page.goto(stack.uiUrl);
    await page.getByText("Ask the agent something to see your first trace").waitFor();
    await page.locator('[data-testid="connection"][data-state="live"]').waitFor();
    await browser.screenshot("01-empty-state");

    // Record the order in which hop rows first appear on screen while the trace is being recorded.
    await page.evaluate(() => {
      const w = window as unknown as { __appeared: string[] };
      w.__appeared = [];
      new MutationObserver(() => {
        for (const el of document.querySelectorAll("[data-hop]")) {
          const n = (el as HTMLElement).dataset.hop ?? "";
          if (!w.__appeared.includes(n)) w.__appeared.push(n);
        }
      }).observe(document.body, { subtree: true, childList: true });
    });
    await page.fill("#ask-input", "Add buy milk to my notes");
    await page.getByRole("button", { name: "Ask", exact: true }).click();
    await page.locator('[data-hop="8"]').waitFor();
    const appeared = await page.evaluate(() => (window as unknown as { __appeared: string[] }).__appeared);
    expect(appeared).toEqual(["1", "2", "3", "4", "5", "6", "7", "8"]);
    const kinds = await page
      .locator("[data-hop]")
      .evaluateAll((rows) => rows.map((r) => `${(r as HTMLElement).dataset.hop}:${(r as HTMLElement).dataset.kind}`));
    expect(kinds).toEqual([
      "1:agent-request",
      "2:mcp",
      "3:model-request",
      "4:model-response",
      "5:mcp",
      "6:model-request",
      "7:model-response",
      "8:agent-response",
    ]);
    // Following live selected each hop as it arrived: the view ends on the host's reply.
    await expect
      .poll(() => page.evaluate(() => location.hash), { timeout: 10_000 })
      .toMatch(/^#\/trace\/[^/]+\/hop\/8$/);
    await expect.poll(() => page.getByTestId("model-badge").textContent()).toContain("stand-in");
    await browser.screenshot("02-trace-live");
    await page.locator('[data-hop="8"]').click();
    await expect.poll(() => page.getByTestId("hop-detail").textContent()).toContain('append({"content":"buy milk"})');
    await browser.screenshot("02b-host-replied");
  });

  it("shows the prompt the model saw: the system block, the tools and the user's words", async () => {
    const { page } = browser;
    await page.locator('[data-hop="3"]').click();
    const prompt = page.getByTestId("rendered-prompt");
    await prompt.waitFor();
    const text = await prompt.textContent();
    expect(text).toContain("<|im_start|>system");
    expect(text).toContain("# Tools");
    expect(text).toContain("Add buy milk to my notes");
    await expect.poll(() => page.evaluate(() => location.hash)).toMatch(/\/hop\/3$/);
    // Hovering the user's message highlights the JSON field it came from.
    await page.locator('[data-testid="rendered-prompt"] [data-path="/messages/0/content"]').first().hover();
    await expect
      .poll(() => page.locator('[data-testid="request-json"] [data-path="/messages/0/content"]').getAttribute("class"))
      .toBeTruthy();
    await browser.screenshot("03-what-the-model-saw");
    await page.getByRole("button", { name: "Show tokens" }).click();
    const count = Number((await page.getByTestId("token-count").textContent())?.replace(/\D/g, ""));
    await expect.poll(() => page.locator('[data-testid="tokens"] > span').count()).toBe(Math.min(count, 3000));
    await browser.screenshot("03b-tokens");
    await page.getByRole("button", { name: "Show text" }).click();
  });

  it("shows what the model wrote: the reconstructed <tool_call> beside the parsed tool_calls", async () => {
    const { page } = browser;
    await page.keyboard.press("j"); // hop 4, the model's answer
    const raw = page.getByTestId("raw-output");
    await raw.waitFor();
    expect(await raw.textContent()).toContain("<tool_call>");
    expect(await page.getByTestId("parsed-tool-calls").textContent()).toContain('"buy milk"');
    await browser.screenshot("04-what-the-model-wrote");
    await page.keyboard.press("6");
    await expect.poll(() => page.getByTestId("hop-detail").textContent()).toContain("Inside the model server");
    await browser.screenshot("04b-timing");
    await page.keyboard.press("3");
  });

  it("shows the second model request as a diff: the history is resent, two messages are new", async () => {
    const { page } = browser;
    await page.locator('[data-hop="6"]').click();
    await page.locator('[data-tab="diff"]').click();
    const diff = page.getByTestId("diff");
    await diff.waitFor();
    expect(await diff.locator('[data-status="new"]').count()).toBe(2);
    expect(await diff.locator('[data-status="resent"]').count()).toBe(1);
    await browser.screenshot("05-whats-new");
    await page.locator('[data-tab="saw"]').click();
    const marker = page.getByLabel("new since the previous request");
    await marker.waitFor();
    await marker.scrollIntoViewIfNeeded();
    await browser.screenshot("05b-prompt-resent-dimmed");
  });

  it("shows the MCP call: method, tool, arguments, outcome", async () => {
    const { page } = browser;
    await page.locator('[data-hop="5"]').click();
    const mcp = page.getByTestId("mcp-view");
    await mcp.waitFor();
    const text = await mcp.textContent();
    expect(text).toContain("tools/call");
    expect(text).toContain("append");
    expect(text).toContain("buy milk");
    await browser.screenshot("06-mcp");
  });

  it("follows “buy milk” from the question through the prompt, the tool call and the MCP request to the reply", async () => {
    const { page } = browser;
    // Select the value where it first appears: in the arguments the model chose.
    const args = page.getByTestId("mcp-view").locator("pre").first();
    await args.evaluate((pre) => {
      const node = [...pre.childNodes].find((n) => n.textContent?.includes("buy milk"));
      if (!node) throw new Error("no text node with buy milk");
      const at = node.textContent!.indexOf("buy milk");
      const range = document.createRange();
      range.setStart(node, at);
      range.setEnd(node, at + "buy milk".length);
      getSelection()!.removeAllRanges();
      getSelection()!.addRange(range);
    });
    await args.dispatchEvent("mouseup");
    await page.getByTestId("follow-selection").click();
    expect(await page.inputValue("#follow-input")).toBe("buy milk");
    const panel = page.getByTestId("follow-panel");
    await panel.waitFor();
    // Every hop the value travels through (a tool description may mention it too, e.g. in tools/list).
    await expect
      .poll(async () => [
        ...new Set(
          await panel.locator("[data-hop]").evaluateAll((els) => els.map((e) => (e as HTMLElement).dataset.hop)),
        ),
      ])
      .toEqual(expect.arrayContaining(["1", "3", "4", "5", "6", "7", "8"]));
    const origins = await panel.textContent();
    expect(origins).toContain("from /messages/0/content");
    // The value is marked where it sits in the open hop, too.
    expect(await page.locator('[data-testid="mcp-view"] mark').count()).toBeGreaterThan(0);
    await browser.screenshot("07-follow-buy-milk");
    await page.keyboard.press("Escape");
    await page.locator("body").click({ position: { x: 5, y: 700 } });
    await page.keyboard.press("p");
    await page.getByTestId("presenter").waitFor();
    await page.locator('[data-hop="6"]').click();
    await expect.poll(() => page.getByTestId("caption").textContent()).toContain("resending everything");
    await browser.screenshot("08-presenter-light-hop-6");
    await page.keyboard.press("Escape");
    expect(browser.pageErrors).toEqual([]);
  });
});
