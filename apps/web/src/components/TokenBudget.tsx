/**
 * Where a model request's tokens go: one bar as wide as the context window (num_ctx), split into the system
 * prompt, the tool instructions and each tool definition, each message of the history and the waiting
 * assistant turn; what is new since the previous request is marked. The parts sum to the prompt's count,
 * which is checked against the server's prompt_eval_count. Headline: what the tools cost on every call.
 */
import type { TokenBudget as Budget, BudgetPart } from "@hopscope/shared/prompt/token-budget";
import type { ExchangeSummary } from "@hopscope/shared/trace/schemas";
import { bodyText, tryJson } from "../models/body";
import { budgetFor, countAgreement, requestFacts } from "../models/budget";
import { useApp } from "./AppContext";
import { Loading } from "./Loading";
import s from "./TokenBudget.module.css";

function pct(n: number, of: number): string {
  return `${Math.round((n / Math.max(1, of)) * 100)}%`;
}

function colourOf(p: BudgetPart): string {
  if (p.kind === "system") return "system";
  if (p.kind === "tool" || p.kind === "tool-instructions") return "tool";
  if (p.kind === "generation") return "special";
  return p.role ?? "user";
}

function Bar({ b }: { b: Budget }) {
  const window = Math.max(b.contextWindow.tokens, b.total);
  return (
    <div
      class={s.bar}
      role="img"
      aria-label={`${b.total} of ${b.contextWindow.tokens} tokens of the context window`}
      data-testid="budget-bar"
    >
      {b.parts.map((p) => (
        <i
          key={p.key}
          class={`${s.part} ${p.isNew ? s.new : ""}`}
          data-c={colourOf(p)}
          style={{ width: `${(p.tokens / window) * 100}%` }}
          title={`${p.label}: ${p.tokens} tokens`}
        />
      ))}
    </div>
  );
}

export function TokenBudget({ x, compact = false }: { x: ExchangeSummary; compact?: boolean }) {
  const { trace } = useApp();
  const v = trace.views.value.get(x.id);
  const full = trace.full.value.get(x.id);
  // Both the prompt and the request (tool names, num_ctx) are needed; the budget is computed once per prompt.
  if (v?.status !== "ready" || !v.value.prompt || full?.status !== "ready") return null;
  const facts = requestFacts(tryJson(bodyText(full.value.requestBody)));
  const budget = budgetFor({
    prompt: v.value.prompt,
    toolNames: facts.toolNames,
    newFrom: v.value.diff?.commonPrefixLength,
    numCtx: facts.numCtx,
  });
  const server = x.classification.kind === "model.chat" ? x.classification.promptEvalCount : undefined;
  return (
    <Loading value={budget.value} what="the token budget (the tokenizer is a few megabytes)">
      {(b) => (
        <section
          class={`${s.budget} ${compact ? s.compact : ""}`}
          data-testid="token-budget"
          data-total={b.total}
          data-sum={b.parts.reduce((n, p) => n + p.tokens, 0)}
        >
          {b.toolCount > 0 ? (
            <p class={s.headline} data-testid="tools-cost">
              Your {b.toolCount === 5 ? "five" : b.toolCount} tool{b.toolCount === 1 ? "" : "s"} cost{" "}
              <b>{b.toolsTotal.toLocaleString()} tokens</b> on every call — {pct(b.toolsTotal, b.total)} of this prompt.
            </p>
          ) : null}
          <Bar b={b} />
          <WindowScale b={b} />
          {compact ? null : (
            <>
              <PartsTable b={b} />
              <CountCheck b={b} server={server} />
            </>
          )}
        </section>
      )}
    </Loading>
  );
}

/** The prompt's share of the context window, what is new, and why the window is that size. */
function WindowScale({ b }: { b: Budget }) {
  const ctx = b.contextWindow;
  return (
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
        {ctx.note}. A prompt longer than that is cut: Ollama drops the oldest messages (keeping system messages and the
        last one).
      </details>
    </p>
  );
}

/** Each part of the prompt with its tokens and share, summed in the footer. */
function PartsTable({ b }: { b: Budget }) {
  return (
    <table class={s.table}>
      <thead>
        <tr>
          <th>part of the prompt</th>
          <th class={s.num}>tokens</th>
          <th class={s.num}>share</th>
        </tr>
      </thead>
      <tbody>
        {b.parts.map((p) => (
          <tr key={p.key} data-key={p.key} data-new={p.isNew ? "true" : undefined}>
            <td>
              <i class={s.swatch} data-c={colourOf(p)} /> {p.label}
              {p.isNew ? <span class={s.badge}>new</span> : null}
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
  );
}

/** Our count against the server's prompt_eval_count, and how the framing tokens are counted. */
function CountCheck({ b, server }: { b: Budget; server: number | undefined }) {
  const agree = countAgreement(b.total, server);
  return (
    <details class={s.more} data-testid="budget-check">
      <summary class={agree.equal ? s.ok : s.diff}>
        {agree.equal ? "✓ " : ""}
        {agree.text}
      </summary>
      {agree.detail} Framing tokens (<code>{"<|im_start|>user\\n"}</code>, <code>{"<|im_end|>"}</code>) count with the
      part they wrap; the “# Tools … &lt;tools&gt;” header and the instructions after the list count as tool-calling
      instructions, because the template writes them only when tools are sent.
    </details>
  );
}
