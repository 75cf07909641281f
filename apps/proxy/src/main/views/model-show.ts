/**
 * The model's own template, from the model upstream's `POST /api/show`, asked by the recorder directly (not
 * through a tap, so it is never part of a trace) and cached briefly per model name. With a real Ollama this is the
 * only way to know a model's TEMPLATE, or that a built-in Go renderer builds its prompt instead.
 */
import { ShowResponseSchema } from "@hopscope/shared/ollama/schemas";
import { renderingOf, type ModelRendering } from "@hopscope/shared/ollama/show-rendering";
import type { Logger } from "../../logger";

export const SHOW_TTL_MS = 30_000;
const TIMEOUT_MS = 5_000;
const MAX_MODELS = 64;

export type ShowAnswer = { ok: true; rendering: ModelRendering } | { ok: false; why: string };

export class ModelShowCache {
  private readonly cache = new Map<string, { at: number; answer: Promise<ShowAnswer> }>();

  constructor(
    private readonly upstream: string,
    private readonly logger: Logger,
  ) {}

  get(model: string): Promise<ShowAnswer> {
    const hit = this.cache.get(model);
    if (hit && Date.now() - hit.at <= SHOW_TTL_MS) return hit.answer;
    const answer = this.ask(model);
    this.cache.set(model, { at: Date.now(), answer });
    if (this.cache.size > MAX_MODELS) this.cache.delete(this.cache.keys().next().value as string);
    return answer;
  }

  private async ask(model: string): Promise<ShowAnswer> {
    const url = `${this.upstream.replace(/\/+$/, "")}/api/show`;
    try {
      const res = await fetch(url, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ model }),
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
      const text = await res.text();
      if (!res.ok)
        return { ok: false, why: `${url} answered ${res.status} for ${JSON.stringify(model)}: ${text.slice(0, 200)}` };
      const parsed = ShowResponseSchema.safeParse(JSON.parse(text));
      if (!parsed.success)
        return { ok: false, why: `${url} did not answer an /api/show body for ${JSON.stringify(model)}` };
      return { ok: true, rendering: renderingOf(parsed.data) };
    } catch (err) {
      this.logger.warn({ upstream: this.upstream, model, err: (err as Error).message }, "model /api/show failed");
      return { ok: false, why: `could not ask ${url} about ${JSON.stringify(model)}: ${(err as Error).message}` };
    }
  }
}
