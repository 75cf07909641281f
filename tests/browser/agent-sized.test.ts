/**
 * What the model saw, at an agent's size, in Chromium against the real stack: Claude Code's, Codex's and opencode's
 * requests (built as they send them, shared/test/dialects/agent-requests.ts) sent through the model tap to the
 * stand-in, then opened as a learner would. Without a click: Claude Code's question was cut by the 4,096-token
 * window and how to raise it; its 38 tools fill most of the prompt, each by its real name; Codex's developer
 * instructions never reach qwen2.5 (its namespace's tools do, expanded by Ollama 0.32.7+). Screenshots of the context
 * picture at 1920×1080 and 1280×720, dark and light.
 */
import { describe, expect, it } from "vitest";
import {
  type AgentRequest,
  claudeCodeRequest,
  codexRequest,
  opencodeRequest,
} from "../../shared/test/dialects/agent-requests";
import { browserSuite } from "./support/suite";

describe("what the model saw, at an agent's size", () => {
  const suite = browserSuite({ colorScheme: "dark" });

  /** Sends the agent's request through the model tap and opens its trace at the request hop. */
  async function openAgent(r: AgentRequest): Promise<void> {
    const { page } = suite.browser;
    const before = await traceIds();
    const res = await fetch(`${suite.stack.tapUrls.model}${r.path}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(r.body),
    });
    await res.text();
    let id: string | undefined;
    await expect.poll(async () => (id = (await traceIds()).find((t) => !before.includes(t)))).toBeDefined();
    await page.goto(suite.stack.uiUrl);
    await page.locator(`[data-trace="${id}"]`).click();
    await page.locator('[data-hop="1"]').click();
    await page.locator('[data-tab="saw"]').click();
    await page.getByTestId("rendered-prompt").waitFor({ timeout: 30_000 });
  }

  async function traceIds(): Promise<string[]> {
    const list = (await (await fetch(`${suite.stack.uiUrl}/api/traces`)).json()) as { traces: { id: string }[] };
    return list.traces.map((t) => t.id);
  }

  it(
    "Claude Code: the question cut by a 4,096-token window, how to raise it, and the 38 tools at a glance",
    {
      timeout: 120_000,
    },
    async () => {
      const { page } = suite.browser;
      // Without its thinking settings: whether the stand-in drops them as Ollama does for Anthropic requests is not
      // this test's matter (the unit tests list them as never seen).
      const { thinking: _thinking, output_config: _effort, ...body } = claudeCodeRequest().body;
      await openAgent({ ...claudeCodeRequest(), body });
      const sentence = page.getByTestId("truncation-sentence");
      await sentence.waitFor();
      const words = (await sentence.textContent()) ?? "";
      expect(words).toContain("4,096-token context window");
      expect(words).toContain("/messages/0 (user) and /messages/1 (assistant) — 51 tokens, your question among them");
      expect(words).toContain("OLLAMA_CONTEXT_LENGTH=32768");
      expect(words).toContain("Anthropic Messages carries no num_ctx");
      expect(await sentence.isVisible()).toBe(true);
      // The cut part of the prompt is set apart, and the heading does not claim the model received it all.
      expect(await page.getByTestId("cut-marker").count()).toBe(1);
      expect(await page.getByTestId("prompt-heading").textContent()).toContain("were cut");
      const unseen = (await page.getByTestId("unseen-list").textContent()) ?? "";
      expect(unseen).toContain("/metadata");
      expect(unseen).toContain("/tools/0/input_schema/additionalProperties");
      expect(await page.getByTestId("glance-headline").textContent()).toMatch(
        /^Your 38 tools cost [\d,]+ tokens on every call — (8\d|9\d)% of this prompt\.$/,
      );
      await page.setViewportSize({ width: 1920, height: 1080 });
      await suite.browser.screenshot("agent-01-claude-code-saw-1920");
      await page.setViewportSize({ width: 1280, height: 720 });
      await suite.browser.screenshot("agent-02-claude-code-saw-1280");

      // The budget tab: every part, most expensive first, named by the tool's real name; parts sum to the count.
      await page.locator('[data-tab="budget"]').click();
      const budget = page.getByTestId("hop-detail").getByTestId("token-budget");
      await budget.waitFor();
      const rows = budget.locator("tbody tr");
      const tokens = (await rows.locator("td:nth-child(2)").allTextContents()).map((t) => Number(t.replace(/\D/g, "")));
      expect(tokens).toEqual([...tokens].sort((a, b) => b - a));
      expect(tokens.reduce((n, t) => n + t, 0)).toBe(Number(await budget.getAttribute("data-total")));
      const labels = await rows.locator("td:first-child").allTextContents();
      expect(labels.filter((l) => l.startsWith("Tool: "))).toHaveLength(38);
      expect(labels.join("\n")).toContain("Tool: mcp__notes__append");
      expect(labels.join("\n")).not.toContain("Tool: ?");
      expect(await budget.locator('tr[data-cut="true"]').count()).toBe(2);
      await suite.browser.screenshot("agent-03-claude-code-budget-1280");
      await page.setViewportSize({ width: 1920, height: 1080 });
      await suite.browser.screenshot("agent-04-claude-code-budget-1920");
      await page.emulateMedia({ colorScheme: "light" });
      await suite.browser.screenshot("agent-05-claude-code-budget-1920-light");
      await page.emulateMedia({ colorScheme: "dark" });
      await page.setViewportSize({ width: 1280, height: 720 });
    },
  );

  it(
    "Codex: its developer instructions never reach qwen2.5, each with its JSON path; its namespace's tools do, by name",
    {
      timeout: 120_000,
    },
    async () => {
      const { page } = suite.browser;
      await openAgent(codexRequest());
      const list = page.getByTestId("unseen-list");
      await list.waitFor();
      const items = await list.locator("li").allTextContents();
      const text = items.join("\n");
      expect(text).toMatch(/message \/input\/0 a "developer" message \([\d,]+ characters\)/);
      expect(text).toContain("/input/1");
      // Ollama 0.32.7+ expands the namespace: its tools reach the model as mcp__notes.append …
      expect(text).not.toContain("/tools/6/tools/");
      expect(text).toContain("/tool_choice");
      expect(await page.getByTestId("truncation-sentence").count()).toBe(0);
      await page.locator('[data-tab="budget"]').click();
      const labels = await page.getByTestId("hop-detail").locator("tbody tr td:first-child").allTextContents();
      expect(labels).toContain("Tool: mcp__notes.append");
      await page.locator('[data-tab="saw"]').click();
      await suite.browser.screenshot("agent-06-codex-saw-1280");
      await page.setViewportSize({ width: 1920, height: 1080 });
      await suite.browser.screenshot("agent-07-codex-saw-1920");
      await page.setViewportSize({ width: 1280, height: 720 });
    },
  );

  it(
    "opencode: 27 tools by name in the context picture, the window's edge drawn inside the bar",
    {
      timeout: 120_000,
    },
    async () => {
      const { page } = suite.browser;
      await openAgent(opencodeRequest());
      expect(await page.getByTestId("glance-headline").textContent()).toMatch(/^Your 27 tools cost/);
      expect(await page.getByTestId("window-edge").first().textContent()).toContain("context window 4,096");
      await page.locator('[data-tab="budget"]').click();
      const labels = await page.getByTestId("hop-detail").locator("tbody tr td:first-child").allTextContents();
      expect(labels).toContain("Tool: notes_append");
      await suite.browser.screenshot("agent-08-opencode-budget-1280");
    },
  );

  it(
    "a refused request says so, and its prompt is labelled what Ollama would have rendered",
    { timeout: 120_000 },
    async () => {
      const { page } = suite.browser;
      // qwen2.5 cannot think: Ollama refuses a Chat Completions request that asks it to (400).
      const r = opencodeRequest();
      await openAgent({ ...r, body: { ...r.body, reasoning_effort: "high" } });
      const banner = page.getByTestId("refused-banner");
      await banner.waitFor();
      expect(await banner.textContent()).toContain("answered 400");
      expect(await page.getByTestId("prompt-heading").textContent()).toMatch(
        /^The prompt Ollama would have rendered — refused \(400\): the model never saw it$/,
      );
      await suite.browser.screenshot("agent-09-refused-1280");
    },
  );

  it(
    "Claude Code's prompt is drawn in blocks of lines, whole; its tokens and the other families load when asked",
    { timeout: 120_000 },
    async () => {
      const { page } = suite.browser;
      const asked: string[] = [];
      const onRequest = (r: { url(): string }) => asked.push(new URL(r.url()).pathname + new URL(r.url()).search);
      page.on("request", onRequest);
      await openAgent(claudeCodeRequest());
      const prompt = page.getByTestId("rendered-prompt");
      // Many blocks (the browser lays out those in view), and together exactly the prompt the recorder rendered.
      expect(await prompt.locator(":scope > span").count()).toBeGreaterThan(10);
      const id = /\/api\/exchanges\/(\d+)\/views/.exec(asked.find((u) => u.includes("/views")) ?? "")?.[1];
      const whole = (await (await fetch(`${suite.stack.uiUrl}/api/exchanges/${id}/views`)).json()) as {
        prompt: { text: string; tokens: { count: number } };
      };
      const pieces = prompt.locator(':scope > span > span:not([data-testid="cut-marker"]):not([data-new-marker])');
      expect((await pieces.allTextContents()).join("")).toBe(whole.prompt.text);
      // The views came without token ids and families; the families were asked for once the prompt was drawn.
      expect(asked).toContain(`/api/exchanges/${id}/views?omit=tokens,comparisons`);
      await expect.poll(() => asked.includes(`/api/exchanges/${id}/families`)).toBe(true);
      await page.getByTestId("family-compare").waitFor();
      expect(await page.getByTestId("family-compare").getByRole("button").allTextContents()).toEqual([
        "Compare with Ollama 0.13.5",
        "Compare with Ollama 0.14.0 (same)",
      ]);
      expect(asked.filter((u) => u.endsWith("/tokens"))).toEqual([]);
      // The end of the prompt is in view: the waiting assistant turn, the last line of the last block.
      const end = prompt.locator(":scope > span").last();
      await expect
        .poll(() =>
          end.evaluate((e) => e.getBoundingClientRect().bottom <= e.parentElement!.getBoundingClientRect().bottom + 1),
        )
        .toBe(true);
      await page.setViewportSize({ width: 1920, height: 1080 });
      await suite.browser.screenshot("agent-10-claude-code-prompt-end-1920");
      await page.setViewportSize({ width: 1280, height: 720 });
      await suite.browser.screenshot("agent-11-claude-code-prompt-end-1280");
      await prompt.scrollIntoViewIfNeeded();
      // Blocks that come into view are drawn on the next frame.
      await page.waitForTimeout(300);
      await suite.browser.screenshot("agent-11b-claude-code-prompt-in-view-1280");
      await page.setViewportSize({ width: 1920, height: 1080 });
      await prompt.scrollIntoViewIfNeeded();
      await suite.browser.screenshot("agent-11c-claude-code-prompt-in-view-1920");
      await page.setViewportSize({ width: 1280, height: 720 });
      await page.getByRole("button", { name: "Show tokens" }).click();
      await expect.poll(() => page.locator('[data-testid="tokens"] > span').count()).toBe(3000);
      expect(asked).toContain(`/api/exchanges/${id}/tokens`);
      expect(
        await page.getByText(`Showing 3,000 of ${whole.prompt.tokens.count.toLocaleString("en")} tokens`).count(),
      ).toBe(1);
      await suite.browser.screenshot("agent-12-claude-code-tokens-1280");
      await page.getByRole("button", { name: "Show text" }).click();
      page.off("request", onRequest);
    },
  );

  it("Claude Code's request JSON is drawn a member per block, whole; hovering the prompt lights its field", async () => {
    const { page } = suite.browser;
    // The Claude Code request of the previous case is still open (its JSON under the prompt, and in the layers).
    const tree = page.locator('[data-testid="request-json"]:visible');
    await tree.waitFor();
    const blocks = tree.locator(":scope > span > span");
    const body = claudeCodeRequest().body as Record<string, unknown>;
    expect(await blocks.count()).toBe(Object.keys(body).length + 2);
    // Together the blocks are the pretty-printed request, byte for byte.
    expect((await blocks.allTextContents()).join("")).toBe(JSON.stringify(body, null, 2));
    const segment = page.locator('[data-testid="rendered-prompt"] [data-path^="/messages/"]').last();
    const path = await segment.getAttribute("data-path");
    await segment.hover();
    const field = tree.locator(`[data-path="${path}"]`);
    await expect.poll(() => field.getAttribute("class")).toBeTruthy();
    expect(await tree.locator("[class]").evaluateAll((es) => es.filter((e) => /hl/.test(e.className)).length)).toBe(1);
    await field.scrollIntoViewIfNeeded();
    await page.setViewportSize({ width: 1280, height: 720 });
    await suite.browser.screenshot("agent-13-claude-code-request-json-1280");
    await page.setViewportSize({ width: 1920, height: 1080 });
    await field.scrollIntoViewIfNeeded();
    await suite.browser.screenshot("agent-13b-claude-code-request-json-1920");
  });
});
