/** Which endpoint renders on `_debug_render_only` for each dialect and release (from Ollama's own code). */
import { describe, expect, it } from "vitest";
import { carriesDebugRender, debugRenderRoute } from "@hopscope/shared/dialects/debug-render";

describe("debugRenderRoute", () => {
  it("native requests are asked as they are", () => {
    expect(debugRenderRoute("ollama", "0.32.15")).toEqual({ endpoint: "/api/chat", sent: "client" });
    expect(debugRenderRoute("ollama-generate", "0.13.5")).toEqual({ endpoint: "/api/generate", sent: "client" });
  });

  it("/v1/chat/completions answers the render from 0.12.0; before, the native request is asked and the note says why", () => {
    expect(debugRenderRoute("openai-chat", "0.12.0")).toEqual({ endpoint: "/v1/chat/completions", sent: "client" });
    const old = debugRenderRoute("openai-chat", "0.11.10");
    expect(old).toMatchObject({ endpoint: "/api/chat", sent: "native" });
    expect(old.note).toBe(
      'Ollama 0.11.10\'s /v1/chat/completions drops "_debug_render_only" (its OpenAI layer carries it from 0.12.0); so the native /api/chat request hopscope derived is checked instead: the render, not the conversion.',
    );
  });

  it("/v1/completions never answers a render; /v1/responses and /v1/messages drop the field", () => {
    expect(debugRenderRoute("openai-completions", "0.32.15")).toMatchObject({
      endpoint: "/api/generate",
      sent: "native",
    });
    expect(debugRenderRoute("openai-completions", "0.32.15").note).toContain(
      "its answer (a text_completion) has no _debug_info",
    );
    expect(debugRenderRoute("openai-responses", "0.32.15").note).toContain(
      'Ollama\'s /v1/responses drops "_debug_render_only" (the request type of its Responses layer',
    );
    expect(debugRenderRoute("anthropic", "0.14.0")).toMatchObject({ endpoint: "/api/chat", sent: "native" });
    expect(debugRenderRoute("anthropic", "0.14.0").note).toContain(
      "Anthropic layer has no such field, so the model would run",
    );
  });

  it("carriesDebugRender follows the releases", () => {
    expect([carriesDebugRender("ollama", "0.11.4"), carriesDebugRender("ollama", "0.11.5")]).toEqual([false, true]);
    expect([
      carriesDebugRender("openai-completions", "0.11.9"),
      carriesDebugRender("openai-completions", "0.12.0"),
    ]).toEqual([false, true]);
    expect(carriesDebugRender("anthropic", "0.33.0")).toBe(false);
  });
});
