/**
 * The token budget of a model request, for the UI: the shared pure `tokenBudget` over the prompt the
 * recorder rendered, counted with the project's Qwen tokenizer (loaded on first use: it is megabytes, a
 * separate chunk). Also the words for how our count compares with the model server's `prompt_eval_count`.
 */
import { signal, type Signal } from "@preact/signals";
import { tokenBudget, type TokenBudget } from "@hopscope/shared/prompt/token-budget";
import type { ExchangeViews } from "@hopscope/shared/trace/views";
import type { Loadable } from "./TraceModel";

type PromptView = NonNullable<ExchangeViews["prompt"]>;

const cache = new WeakMap<PromptView, Signal<Loadable<TokenBudget>>>();

export interface BudgetRequest {
  prompt: PromptView;
  toolNames: readonly string[];
  newFrom?: number | undefined;
  numCtx?: number | undefined;
}

/** The budget of a prompt, computed once per prompt view (a signal: loading, then ready or error). */
export function budgetFor(req: BudgetRequest): Signal<Loadable<TokenBudget>> {
  const hit = cache.get(req.prompt);
  if (hit) return hit;
  const out = signal<Loadable<TokenBudget>>({ status: "loading" });
  cache.set(req.prompt, out);
  import("@hopscope/shared/tokens/qwen")
    .then((m) => m.loadQwenTokenizer())
    .then((tok) => {
      out.value = {
        status: "ready",
        value: tokenBudget({
          text: req.prompt.text,
          segments: req.prompt.segments,
          count: tok.count,
          toolNames: req.toolNames,
          ollamaVersion: req.prompt.ollamaVersion,
          ...(req.newFrom !== undefined ? { newFrom: req.newFrom } : {}),
          ...(req.numCtx !== undefined ? { numCtx: req.numCtx } : {}),
        }),
      };
    })
    .catch((err: unknown) => {
      out.value = { status: "error", message: err instanceof Error ? err.message : String(err) };
    });
  return out;
}

/** Tool names and num_ctx from a chat request body (already parsed JSON), for labels and the bar's width. */
export function requestFacts(body: unknown): { toolNames: string[]; numCtx: number | undefined } {
  const b = (body && typeof body === "object" ? body : {}) as { tools?: unknown; options?: { num_ctx?: unknown } };
  const tools = Array.isArray(b.tools) ? b.tools : [];
  const toolNames = tools.map((t) => {
    const name = (t as { function?: { name?: unknown } })?.function?.name;
    return typeof name === "string" ? name : "?";
  });
  const n = b.options?.num_ctx;
  return { toolNames, numCtx: typeof n === "number" && n > 0 ? n : undefined };
}

/**
 * Our count against the server's `prompt_eval_count`, in words: equal, fewer (the server reused a cached
 * prefix and evaluated only the rest), or more (the server rendered a different prompt: another template
 * or Ollama version).
 */
export function countAgreement(
  ours: number,
  server: number | undefined,
): { equal: boolean; text: string; detail: string } {
  if (server === undefined)
    return {
      equal: false,
      text: `${ours.toLocaleString()} tokens, as our tokenizer counts`,
      detail: "The model server's answer carried no prompt_eval_count to check against.",
    };
  if (server === ours)
    return {
      equal: true,
      text: `${ours.toLocaleString()} tokens, as the model server counted`,
      detail: `prompt_eval_count in the model server's answer is ${server.toLocaleString()}: the same as the Qwen tokenizer's count of this prompt.`,
    };
  if (server < ours) {
    return {
      equal: false,
      text: `${ours.toLocaleString()} tokens; the server evaluated ${server.toLocaleString()}`,
      detail: `prompt_eval_count counts only the tokens the server had to evaluate: ${(ours - server).toLocaleString()} tokens at the start were already in its cache from the previous request (or the prompt was cut to fit num_ctx).`,
    };
  }
  return {
    equal: false,
    text: `${ours.toLocaleString()} tokens here; the server counted ${server.toLocaleString()}`,
    detail: `The server counted ${(server - ours).toLocaleString()} more tokens than this prompt has: it rendered a different prompt (another template, Ollama version or system text).`,
  };
}

/**
 * The tokens of the text the model wrote against the server's `eval_count`, in words. The server also counts
 * the token that ended the turn (`<|im_end|>`), which the text shown does not contain: one more is expected.
 */
export function generatedAgreement(ours: number, evalCount: number | undefined): string {
  if (evalCount === undefined) return `${ours.toLocaleString()} tokens in this text, as our tokenizer counts`;
  if (evalCount === ours) return `${ours.toLocaleString()} tokens generated, as the model server counted (eval_count)`;
  if (evalCount === ours + 1)
    return `${evalCount.toLocaleString()} tokens generated, as the model server counted (eval_count): the ${ours.toLocaleString()} of this text, plus <|im_end|>, the token that ended its turn`;
  return `${ours.toLocaleString()} tokens in this text; the model server counted ${evalCount.toLocaleString()} generated (eval_count) — it stopped on another token, or the text was rebuilt differently from what it wrote`;
}
