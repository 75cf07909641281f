/**
 * Where the prompt text of "What the model saw" comes from, when that is not hopscope's engine running the model's
 * template: the model server's own render (a built-in Go renderer), and, for a model whose family the project's
 * tokenizer does not cover, the server's own token count as the only count.
 */
import type { ExchangeViews } from "@hopscope/shared/trace/views";
import s from "./PromptSource.module.css";

type PromptView = NonNullable<ExchangeViews["prompt"]>;

export function PromptSource({ p, promptEvalCount }: { p: PromptView; promptEvalCount?: number | undefined }) {
  const src = p.source;
  const serverCountOnly = !p.tokens && promptEvalCount !== undefined;
  if (src?.renderedBy !== "server" && !serverCountOnly) return null;
  return (
    <>
      {serverCountOnly ? (
        <b
          data-testid="server-token-count"
          title="prompt_eval_count in the model server's response; hopscope's tokenizer (Qwen2.5's) does not count this model's prompts"
        >
          {promptEvalCount.toLocaleString()} tokens, as the server counted
        </b>
      ) : null}
      {src?.renderedBy === "server" ? (
        <span
          class={s.server}
          data-testid="server-rendered"
          title="The model server built this prompt itself (Go code, not a template), so hopscope shows the server's own _debug_render_only render instead of reconstructing it"
        >
          rendered by the server{src.renderer ? `'s built-in ${src.renderer} renderer` : "'s chat template"} (its own
          render{src.renderedAt ? `, from ${src.renderedAt}` : ""})
        </span>
      ) : null}
    </>
  );
}
