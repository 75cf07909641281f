/**
 * The three-shapes view in Chromium against the real stack: the article's question asked in each dialect from
 * the ask box, then one turn shown side by side — Ollama's object arguments, OpenAI's JSON string, Anthropic's
 * tool_use block, all recorded bytes — above the one prompt; and the conversion layer of "what the model saw".
 * Screenshots at 1920×1080 and 1280×720.
 */
import { beforeAll, describe, expect, it } from "vitest";
import type { Browser } from "./support/browser";
import { browserSuite } from "./support/suite";
import type { RecorderStack } from "../support/recorder-stack";

describe("three shapes, side by side", () => {
  const suite = browserSuite({ stack: { sim: { ollamaVersion: "0.14.0" } }, colorScheme: "light" });
  let stack: RecorderStack;
  let browser: Browser;

  beforeAll(async () => {
    ({ stack, browser } = suite);
  });

  it("asks in each dialect from the ask box", async () => {
    const { page } = browser;
    await page.goto(stack.uiUrl);
    await page.locator('[data-testid="connection"][data-state="live"]').waitFor();
    for (const dialect of ["ollama", "openai", "anthropic"]) {
      await page.getByTestId("ask-dialect").selectOption(dialect);
      await page.fill("#ask-input", "Add buy milk to my notes");
      await page.getByRole("button", { name: "Ask", exact: true }).click();
      await page.locator('[data-hop="8"]').waitFor();
      await expect.poll(() => page.getByRole("button", { name: "Ask", exact: true }).isEnabled()).toBe(true);
      // The hop the host sent to the model uses the chosen dialect's endpoint.
      await page.locator('[data-hop="3"]').click();
      const path = dialect === "ollama" ? "/api/chat" : dialect === "openai" ? "/v1/chat/completions" : "/v1/messages";
      await page.locator('[data-tab="wire"]').click();
      await expect.poll(() => page.getByTestId("hop-detail").textContent()).toContain(path);
      // What the model wrote, handed back in the dialect's own shape.
      await page.locator('[data-hop="4"]').click();
      await page.locator('[data-tab="wrote"]').click();
      const parsed = page.getByTestId("parsed-tool-calls");
      const want =
        dialect === "ollama"
          ? '"arguments": {\n'
          : dialect === "openai"
            ? '"arguments": "{\\"content\\":\\"buy milk\\"}"'
            : '"type": "tool_use"';
      await expect.poll(() => parsed.textContent()).toContain(want);
      expect(await page.getByTestId("raw-output").textContent()).toContain("<tool_call>");
    }
  });

  it("shows what the client sent → what Ollama made of it → what the model saw", async () => {
    const { page } = browser;
    await page.locator('[data-hop="6"]').click();
    await page.locator('[data-tab="saw"]').click();
    const layer = page.getByTestId("conversion-layer");
    await layer.waitFor();
    expect(await layer.textContent()).toContain("Anthropic Messages");
    await layer.getByText("Show the native /api/chat request").click();
    expect(await page.getByTestId("native-request").textContent()).toContain('"tool_call_id"');
    // A prompt part links to the client's own field: the tool result came from a tool_result block.
    const result = page.locator('[data-testid="rendered-prompt"] [data-kind="tool-result"]').first();
    expect(await result.getAttribute("data-path")).toMatch(/^\/messages\/2\/content\/0\/content$/);
    // Hovering it highlights that field in the client's own JSON (the tree beside the prompt).
    await result.hover();
    const clientField = page
      .locator('[data-testid="request-json"]')
      .last()
      .locator('[data-path="/messages/2/content/0/content"]');
    await expect.poll(() => clientField.getAttribute("class")).toBeTruthy();
    await page.setViewportSize({ width: 1920, height: 1080 });
    await browser.screenshot("three-shapes-conversion-1920");
  });

  it("puts the turn in three shapes side by side, all recorded, over one prompt", async () => {
    const { page } = browser;
    await page.locator('[data-hop="3"]').click();
    await page.locator('[data-tab="saw"]').click();
    await page.getByTestId("open-three-shapes").click();
    const view = page.getByTestId("three-shapes");
    await view.getByTestId("shared-prompt").waitFor();
    const shape = (d: string) => view.getByTestId(`shape-${d}`);
    expect(await shape("ollama").getByTestId("tool-call-shape").textContent()).toContain(
      '"arguments": {"content":"buy milk"}',
    );
    expect(await shape("openai").getByTestId("tool-call-shape").textContent()).toContain(
      '"arguments": "{\\"content\\":\\"buy milk\\"}"',
    );
    expect(await shape("anthropic").getByTestId("tool-call-shape").textContent()).toContain('"type": "tool_use"');
    for (const d of ["ollama", "openai", "anthropic"]) {
      expect(await shape(d).textContent()).toContain("recorded");
      expect(await shape(d).textContent()).toContain("✓ becomes exactly the prompt below");
    }
    expect(await view.getByTestId("shared-prompt").textContent()).toContain(
      "<|im_start|>user\nAdd buy milk to my notes<|im_end|>",
    );
    await browser.screenshot("three-shapes-1920");
    await page.setViewportSize({ width: 1280, height: 720 });
    await browser.screenshot("three-shapes-1280");
    // The theme key still works with the view open: the dark palette at projector size.
    await page.keyboard.press("t");
    await expect.poll(() => page.evaluate(() => document.documentElement.dataset.scheme ?? "")).toBe("dark");
    await browser.screenshot("three-shapes-1280-dark");
    await page.keyboard.press("Escape");
    await expect.poll(() => view.count()).toBe(0);
    expect(browser.pageErrors).toEqual([]);
  });

  it("a request Ollama refuses says why there is no prompt, never a blank pane", async () => {
    const { page } = browser;
    const { modelTapUrl } = JSON.parse(await stack.api("/api/config")) as { modelTapUrl: string };
    const res = await fetch(`${modelTapUrl}/v1/messages`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        model: "qwen2.5:7b",
        max_tokens: 10,
        messages: [{ role: "assistant", content: [{ type: "tool_use", name: "append", input: {} }] }],
      }),
    });
    expect(res.status).toBe(400);
    let traceId = "";
    await expect
      .poll(async () => {
        const list = JSON.parse(await stack.api("/api/traces?limit=5")) as {
          traces: { id: string; exchangeCount: number }[];
        };
        traceId = list.traces.find((t) => t.exchangeCount === 1)?.id ?? "";
        return traceId;
      })
      .not.toBe("");
    await page.goto(`${stack.uiUrl}/#/trace/${traceId}/hop/1`);
    await page.locator('[data-tab="saw"]').click();
    await expect
      .poll(() => page.getByTestId("hop-detail").textContent())
      .toContain(
        "Ollama refuses this request before rendering anything (400: tool_use block missing required 'id' field)",
      );
    await browser.screenshot("three-shapes-refused-1280");
  });
});
