/**
 * With a model Ollama renders with a built-in Go renderer: the recorder asks the upstream's /api/show directly (not
 * through a tap: the trace holds only the host's calls), sees `RENDERER qwen3-coder` in the Modelfile, and shows the
 * server's own `_debug_render_only` render, labelled so; its family (qwen3moe) is counted with Qwen3's vocabulary.
 * A qwen2.5 request in the same stack is rendered from /api/show's template with Qwen2.5's. The stand-in
 * (SIM_BUILTIN_RENDERER_MODEL) answers /api/show like Ollama v0.32.15 does for such a model. (A family the
 * tokenizer does not cover: apps/proxy/test/model-family-views.test.ts.)
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ExchangeSchema } from "@hopscope/shared/trace/schemas";
import { ExchangeViewsSchema, fullTokens } from "@hopscope/shared/trace/views";
import { renderBuiltin } from "../apps/model-sim/src/sim/builtin-renderer";
import { openBrowser, type Browser } from "./browser/support/browser";
import { buildUi } from "./browser/support/build-ui";
import { startRecorderStack, type RecorderStack } from "./support/recorder-stack";

const QUESTION = "Add buy milk to my notes";

async function modelExchanges(stack: RecorderStack) {
  await stack.ask(QUESTION);
  const trace = await stack.waitForTrace(QUESTION);
  const chats = trace.exchanges.filter((e) => e.classification.kind === "model.chat").sort((a, b) => a.seq - b.seq);
  return { trace, chats };
}

describe("a model with a built-in renderer, through the recorder", () => {
  let stack: RecorderStack;
  let ui: Awaited<ReturnType<typeof buildUi>>;
  let browser: Browser;
  beforeAll(async () => {
    ui = await buildUi();
    stack = await startRecorderStack({
      webDist: ui.dir,
      sim: { builtinRendererModel: true },
      host: { model: "qwen3-coder:30b" },
    });
    browser = await openBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await stack?.close();
    await ui?.remove();
  });

  it("shows the server's own render, labelled, counted with Qwen3's vocabulary", async () => {
    const { trace, chats } = await modelExchanges(stack);
    // /api/show and _debug_render_only went to the upstream directly: the trace has only the host's model calls.
    expect(trace.exchanges.filter((e) => e.tap === "model").map((e) => e.url)).toEqual(chats.map(() => "/api/chat"));
    const ex = ExchangeSchema.parse(JSON.parse(await stack.api(`/api/exchanges/${chats[0]!.id}`)));
    const views = ExchangeViewsSchema.parse(JSON.parse(await stack.api(`/api/exchanges/${chats[0]!.id}/views`)));
    const request = JSON.parse(ex.requestBody!.data) as Record<string, unknown>;
    expect(views.prompt?.source).toEqual({
      renderedBy: "server",
      renderer: "qwen3-coder",
      family: "qwen3moe",
      renderedAt: "/api/chat",
    });
    expect(views.prompt?.text).toBe(renderBuiltin(request));
    expect(views.prompt?.segments).toEqual([]);
    expect(views.prompt?.comparisons).toBeUndefined();
    expect(views.notes).toBeUndefined();
    const c = ex.classification;
    expect(c.kind === "model.chat" && c.promptEvalCount).toBeGreaterThan(0);
    expect(views.prompt?.tokens?.count).toBe(c.kind === "model.chat" ? c.promptEvalCount : -1);
    // The tool-result turn: <tool_response> is one token in Qwen3's vocabulary, as the server counted it.
    const second = ExchangeViewsSchema.parse(JSON.parse(await stack.api(`/api/exchanges/${chats[1]!.id}/views`)));
    expect(second.prompt?.text).toContain("<tool_response>");
    expect(fullTokens(second.prompt?.tokens)?.ids).toContain(151665);
    const c2 = chats[1]!.classification;
    expect(second.prompt?.tokens?.count).toBe(c2.kind === "model.chat" ? c2.promptEvalCount : -1);

    const { page } = browser;
    // The model is listed as pulled, as Ollama lists it.
    const config = JSON.parse(await stack.api("/api/config")) as { modelTapUrl: string };
    const tags = (await (await fetch(`${config.modelTapUrl}/api/tags`)).json()) as {
      models: { name: string; details: { family: string } }[];
    };
    expect(tags.models.map((m) => [m.name, m.details.family])).toEqual([
      ["qwen2.5:7b", "qwen2"],
      ["qwen3-coder:30b", "qwen3moe"],
    ]);
    await page.goto(`${stack.uiUrl}/#/trace/${trace.id}/hop/3`);
    await page.getByTestId("server-rendered").waitFor();
    expect(await page.getByTestId("server-rendered").textContent()).toBe(
      "rendered by the server's built-in qwen3-coder renderer (its own render, from /api/chat)",
    );
    expect(await page.getByTestId("token-count").getAttribute("data-count")).toBe(
      String(c.kind === "model.chat" ? c.promptEvalCount : -1),
    );
    expect(await page.getByTestId("server-token-count").count()).toBe(0);
    expect(await page.getByTestId("rendered-prompt").textContent()).toContain("# Tools\n<tools>");
    await browser.screenshot("31-builtin-renderer-1280");
    await page.setViewportSize({ width: 1920, height: 1080 });
    await browser.screenshot("31-builtin-renderer-1920");
    await page.setViewportSize({ width: 1280, height: 720 });
    expect(browser.pageErrors).toEqual([]);
  });
});

describe("a model with a Go TEMPLATE: rendered from /api/show's template", () => {
  it("qwen2.5 is rendered by the engine from the upstream's template, with tokens", async () => {
    const stack = await startRecorderStack({ sim: { builtinRendererModel: true } });
    try {
      const { chats } = await modelExchanges(stack);
      const views = ExchangeViewsSchema.parse(JSON.parse(await stack.api(`/api/exchanges/${chats[0]!.id}/views`)));
      expect(views.prompt?.source).toEqual({ renderedBy: "engine", template: "api-show", family: "qwen2" });
      expect(views.prompt?.tokens?.count).toBe(
        chats[0]!.classification.kind === "model.chat" ? chats[0]!.classification.promptEvalCount : -1,
      );
      expect(views.prompt?.segments.length).toBeGreaterThan(5);
    } finally {
      await stack.close();
    }
  });
});
