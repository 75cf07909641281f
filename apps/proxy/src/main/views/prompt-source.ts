/**
 * Where "what the model saw" comes from for one recorded /api/chat request, decided from the upstream's
 * `/api/show` for its model: the model's own Go TEMPLATE run by hopscope's engine, or — for a model Ollama renders
 * with a built-in Go renderer (or llama-server's Jinja chat template) — the server's own `_debug_render_only`
 * render, labelled so. Token counts come from the project's tokenizer for the Qwen families (Qwen2.5's vocabulary,
 * or Qwen3's); for other families the server's prompt_eval_count is the only count shown.
 */
import { vocabularyForFamily } from "@hopscope/shared/ollama/show-rendering";
import type { QwenVocabulary } from "@hopscope/shared/tokens/qwen";
import type { RenderOptions } from "@hopscope/shared/prompt/render";
import type { ExchangeViews } from "@hopscope/shared/trace/views";
import type { Logger } from "../../logger";
import { ModelShowCache } from "./model-show";
import { ServerRenderCache } from "./server-render";

type PromptSource = NonNullable<NonNullable<ExchangeViews["prompt"]>["source"]>;

interface Common {
  source: PromptSource;
  /** The vocabulary the project's tokenizer counts this model's prompts with; null: the server's count only. */
  vocabulary: QwenVocabulary | null;
  notes: string[];
}
export type PromptPlan =
  | (Common & { kind: "engine"; opts: Pick<RenderOptions, "template" | "system"> })
  | (Common & { kind: "server"; text: string | null });

export class PromptSources {
  private readonly shows: ModelShowCache;
  private readonly renders: ServerRenderCache;

  constructor(upstream: string, logger: Logger) {
    this.shows = new ModelShowCache(upstream, logger);
    this.renders = new ServerRenderCache(upstream);
  }

  /**
   * `req` is the native request (it names the model); `ask` is where the server renders it on request when its
   * prompt cannot be reconstructed: the endpoint, and the body to send there (default `req`).
   */
  async plan(
    exchangeId: number,
    req: Record<string, unknown>,
    ask: { endpoint: string; body?: Record<string, unknown> } = { endpoint: "/api/chat" },
  ): Promise<PromptPlan> {
    const model = typeof req.model === "string" ? req.model : "";
    const show = await this.shows.get(model);
    if (!show.ok) {
      // An imported trace's model may not be on this upstream: the engine's qwen2.5 template is the best guess.
      return {
        kind: "engine",
        opts: {},
        source: { renderedBy: "engine", template: "builtin-qwen2.5" },
        vocabulary: "qwen2.5",
        notes: [`rendered with the engine's own qwen2.5 template: ${show.why}`],
      };
    }
    const r = show.rendering;
    const family = r.family ?? undefined;
    const vocabulary = vocabularyForFamily(r.family);
    const notes = vocabulary
      ? []
      : [
          `no token view: ${model} is a ${r.family} model and hopscope's tokenizer covers the Qwen families only; the server's own prompt_eval_count is the count`,
        ];
    if (r.kind === "template") {
      return {
        kind: "engine",
        opts: { template: r.template, system: r.system },
        source: { renderedBy: "engine", template: "api-show", ...(family ? { family } : {}) },
        vocabulary,
        notes,
      };
    }
    const source: PromptSource = {
      renderedBy: "server",
      ...(r.kind === "renderer" ? { renderer: r.renderer } : {}),
      ...(family ? { family } : {}),
      renderedAt: ask.endpoint,
    };
    try {
      return {
        kind: "server",
        text: await this.renders.get(exchangeId, ask.body ?? req, ask.endpoint),
        source,
        vocabulary,
        notes,
      };
    } catch (err) {
      const how = r.kind === "renderer" ? `Ollama's built-in ${r.renderer} renderer` : "llama-server's chat template";
      return {
        kind: "server",
        text: null,
        source,
        vocabulary,
        notes: [
          ...notes,
          `no prompt: ${model} is rendered by ${how}, and the server did not render it on request (${(err as Error).message})`,
        ],
      };
    }
  }
}
