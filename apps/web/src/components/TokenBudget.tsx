/**
 * Where a model request's tokens go: the context picture (every part of the prompt against the context window,
 * what Ollama cut hatched), then every part in a table sorted by cost, named by the tool's real name in every
 * dialect. The budget comes with the views (computed where the prompt is rendered, from one tokenisation of it);
 * its parts sum to the prompt's count, which is checked against the server's prompt_eval_count.
 */
import type { ExchangeSummary } from "@hopscope/shared/trace/schemas";
import type { ExchangeViews } from "@hopscope/shared/trace/views";
import { countAgreement } from "../models/budget";
import { useApp } from "./AppContext";
import { ContextPicture } from "./ContextPicture";
import s from "./TokenBudget.module.css";

function pct(n: number, of: number): string {
  return `${Math.round((n / Math.max(1, of)) * 100)}%`;
}

type Budget = NonNullable<NonNullable<ExchangeViews["prompt"]>["budget"]>;

/** Every part of the prompt, most expensive first, and how its total compares with the server's own count. */
function BudgetTable({ b, cut, server }: { b: Budget; cut: ReadonlySet<number>; server: number | undefined }) {
  const agree = countAgreement(b.total, server);
  const byCost = [...b.parts].sort((p, q) => q.tokens - p.tokens);
  return (
    <>
      <div class={s.tableBox} tabIndex={0} aria-label="Every part of the prompt, most expensive first">
        <table class={s.table}>
          <thead>
            <tr>
              <th>part of the prompt (most tokens first)</th>
              <th class={s.num}>tokens</th>
              <th class={s.num}>share</th>
            </tr>
          </thead>
          <tbody>
            {byCost.map((p) => (
              <tr
                key={p.key}
                data-key={p.key}
                data-new={p.isNew ? "true" : undefined}
                data-cut={cut.has(p.messageIndex ?? -1) ? "true" : undefined}
              >
                <td>
                  {p.label}
                  {p.isNew ? <span class={s.badge}>new</span> : null}
                  {cut.has(p.messageIndex ?? -1) ? <span class={`${s.badge} ${s.cut}`}>cut</span> : null}
                </td>
                <td class={s.num}>{p.tokens.toLocaleString()}</td>
                <td class={s.num}>{pct(p.tokens, b.total)}</td>
              </tr>
            ))}
          </tbody>
          <tfoot>
            <tr>
              <td>the whole prompt</td>
              <td class={s.num} data-testid="budget-sum">
                {b.total.toLocaleString()}
              </td>
              <td class={s.num}>100%</td>
            </tr>
          </tfoot>
        </table>
      </div>
      <details class={s.more} data-testid="budget-check">
        <summary class={agree.equal ? s.ok : s.diff}>
          {agree.equal ? "✓ " : ""}
          {agree.text}
        </summary>
        {agree.detail} Framing tokens (<code>{"<|im_start|>user\\n"}</code>, <code>{"<|im_end|>"}</code>) count with the
        part they wrap; the “# Tools … &lt;tools&gt;” header and the instructions after the list count as tool-calling
        instructions, because the template writes them only when tools are sent.
      </details>
    </>
  );
}

export function TokenBudget({ x, compact = false }: { x: ExchangeSummary; compact?: boolean }) {
  const { trace } = useApp();
  const v = trace.views.value.get(x.id);
  const prompt = v?.status === "ready" ? v.value.prompt : undefined;
  const b = prompt?.budget;
  if (!b) return null;
  const truncation = prompt.truncation;
  const cut = new Set(truncation?.dropped ?? []);
  const server = x.classification.kind === "model.chat" ? x.classification.promptEvalCount : undefined;
  const ctx = b.contextWindow;
  return (
    <section
      class={`${s.budget} ${compact ? s.compact : ""}`}
      data-testid="token-budget"
      data-total={b.total}
      data-sum={b.parts.reduce((n, p) => n + p.tokens, 0)}
    >
      <ContextPicture b={b} truncation={truncation} compact={compact} headlineId="tools-cost" />
      <p class={s.scale}>
        <span>
          {b.total.toLocaleString()} of {ctx.tokens.toLocaleString()} tokens of the context window (
          {pct(b.total, ctx.tokens)})
        </span>
        {b.newTotal > 0 ? (
          <span class={s.newNote}>new since the previous request: {b.newTotal.toLocaleString()}</span>
        ) : null}
        <details class={s.more}>
          <summary>why {ctx.tokens.toLocaleString()}?</summary>
          {ctx.note}. A prompt longer than that is cut: Ollama drops the oldest messages (keeping system messages and
          the last one).
        </details>
      </p>
      {compact ? null : <BudgetTable b={b} cut={cut} server={server} />}
    </section>
  );
}
