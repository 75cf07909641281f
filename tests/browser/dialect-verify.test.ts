/**
 * What the prompt view says about verification in each dialect, in Chromium, against an upstream answering like a
 * real Ollama 0.32.15 (tests/support/ollama-like.ts): an OpenAI request checked at /v1/chat/completions as the
 * client sent it (here that server converts content parts its own way, so the view shows where the renders part),
 * and an Anthropic request checked as its native /api/chat request, with the note on why. Screenshots at 1280×720
 * and 1920×1080.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import Anthropic from "@anthropic-ai/sdk";
import OpenAI from "openai";
import { TraceListSchema } from "@hopscope/shared/trace/api";
import { TraceSchema } from "@hopscope/shared/trace/schemas";
import type { Browser } from "./support/browser";
import { browserSuite } from "./support/suite";
import { startOllamaLike, type OllamaLike } from "../support/ollama-like";
import type { RecorderStack } from "../support/recorder-stack";

describe("verification in the prompt view, per dialect", () => {
  let ollama: OllamaLike;
  const suite = browserSuite({
    stack: async () => {
      ollama = await startOllamaLike("0.32.15");
      return { modelUpstream: ollama.url };
    },
    colorScheme: "light",
  });
  let stack: RecorderStack;
  let browser: Browser;

  beforeAll(() => {
    ({ stack, browser } = suite);
  });
  afterAll(async () => {
    await ollama?.close();
  });

  /** Opens the newest trace's model request on "What the model saw" and opens the verification details. */
  async function openNewest(): Promise<void> {
    const list = TraceListSchema.parse(JSON.parse(await stack.api("/api/traces?limit=1")));
    const trace = TraceSchema.parse(JSON.parse(await stack.api(`/api/traces/${list.traces[0]!.id}`)));
    const { page } = browser;
    await page.goto(`${stack.uiUrl}/#/trace/${trace.id}/hop/1`);
    await page.getByTestId("rendered-prompt").waitFor();
    await page.getByTestId("ollama-family").click();
    await page.getByTestId("verify-route").waitFor();
  }

  it("an OpenAI request: checked at /v1/chat/completions as the client sent it, and where the renders part", async () => {
    const openai = new OpenAI({ baseURL: `${stack.tapUrls.model}/v1`, apiKey: "ollama", maxRetries: 0 });
    await openai.chat.completions.create({
      model: "qwen2.5:7b",
      messages: [
        {
          role: "user",
          content: [
            { type: "text", text: "Add buy milk" },
            { type: "text", text: "to my notes" },
          ],
        },
      ],
    });
    await openNewest();
    const { page } = browser;
    const summary = page.locator("summary", { has: page.getByTestId("ollama-family") });
    expect(await summary.textContent()).toMatch(
      /differs from a live Ollama's render \(\/v1\/chat\/completions\) at character \d+$/,
    );
    expect(await page.getByTestId("verify-route").textContent()).toBe(
      "Checked at /v1/chat/completions with the client's own request, so Ollama's conversion is checked as well as its render.",
    );
    // Where they part: ours has the render's blank line between the two parts' messages, that server one newline.
    const diff = (await page.getByTestId("first-difference").textContent()) ?? "";
    expect(diff).toContain("Add buy milk\\n\\nto my notes");
    expect(diff).toContain("Add buy milk\\nto my notes");
    await browser.screenshot("31-dialect-verify-openai-1280");
    await page.setViewportSize({ width: 1920, height: 1080 });
    await browser.screenshot("31-dialect-verify-openai-1920");
    await page.setViewportSize({ width: 1280, height: 720 });
  });

  it("an Anthropic request: /v1/messages answers no render, so its native request is checked at /api/chat, and the view says why", async () => {
    const anthropic = new Anthropic({ baseURL: stack.tapUrls.model, apiKey: "ollama", maxRetries: 0 });
    await anthropic.messages.create({
      model: "qwen2.5:7b",
      max_tokens: 64,
      messages: [{ role: "user", content: "Add buy milk to my notes" }],
    });
    await openNewest();
    const { page } = browser;
    const summary = page.locator("summary", { has: page.getByTestId("ollama-family") });
    expect(await summary.textContent()).toMatch(/checked: a live Ollama \(\/api\/chat\) rendered exactly this text$/);
    const note = (await page.getByTestId("verify-route").textContent()) ?? "";
    expect(note).toContain("Checked at /api/chat with the native request.");
    expect(note).toContain('Ollama\'s /v1/messages drops "_debug_render_only"');
    expect(await page.getByTestId("first-difference").count()).toBe(0);
    await browser.screenshot("31-dialect-verify-anthropic-1280");
    expect(browser.pageErrors).toEqual([]);
  });
});
