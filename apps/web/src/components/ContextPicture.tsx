/**
 * The context at a glance: one bar as wide as the context window (or the prompt, when that is longer), split into
 * every part of the prompt in order — system prompt, each tool definition, each message, tool results, the waiting
 * turn — with what Ollama cut hatched and the window's edge marked. Below it, the groups' totals in words, which is
 * also what a screen reader and the keyboard get (the bar is one image with a label).
 */
import type { TokenBudgetView, TruncationView } from "@hopscope/shared/trace/views";
import { GROUP_LABELS, groupOf, groupTotals, toolsHeadline } from "../models/context-words";
import s from "./ContextPicture.module.css";

const n = (x: number): string => x.toLocaleString("en");

interface Props {
  b: TokenBudgetView;
  truncation?: TruncationView | undefined;
  compact?: boolean;
  /** Test id of the headline (the same picture can be on the page twice). */
  headlineId: string;
}

export function ContextPicture({ b, truncation, compact = false, headlineId }: Props) {
  const cut = new Set(truncation?.dropped ?? []);
  const window = truncation?.contextLength ?? b.contextWindow.tokens;
  const scale = Math.max(window, b.total);
  const groups = groupTotals(b, cut);
  const headline = toolsHeadline(b);
  const free = window - (truncation?.keptTokens ?? b.total);
  const label = `${n(b.total)} tokens rendered against a context window of ${n(window)}: ${groups
    .map(([g, t]) => `${GROUP_LABELS[g].toLowerCase()} ${n(t)}`)
    .join(", ")}`;
  return (
    <div class={`${s.picture} ${compact ? s.compact : ""}`} data-testid="context-picture">
      {headline ? (
        <p class={s.headline} data-testid={headlineId}>
          {headline}
        </p>
      ) : null}
      <div class={s.bar} role="img" aria-label={label} data-testid="budget-bar">
        {b.parts.map((p) => (
          <i
            key={p.key}
            class={`${s.part} ${p.isNew ? s.new : ""}`}
            data-g={groupOf(p, cut)}
            style={{ width: `${(p.tokens / scale) * 100}%` }}
            title={`${p.label}: ${n(p.tokens)} tokens${cut.has(p.messageIndex ?? -1) ? " — cut, never reached the model" : ""}`}
          />
        ))}
        <b
          class={s.edge}
          style={{ left: `${(window / scale) * 100}%` }}
          data-side={window / scale < 0.6 ? "right" : "left"}
          data-testid="window-edge"
        >
          <span>context window {n(window)}</span>
        </b>
      </div>
      <ul class={s.legend}>
        {groups.map(([g, t]) => (
          <li key={g} data-group={g}>
            <i class={s.swatch} data-g={g} /> {GROUP_LABELS[g]} <b>{n(t)}</b>
          </li>
        ))}
        {free > 0 ? (
          <li data-group="free">
            <i class={s.swatch} data-g="free" /> Free <b>{n(free)}</b>
          </li>
        ) : null}
        <li
          class={s.template}
          title="Special tokens, role headers and the tools' framing, counted inside the parts above"
        >
          of which the template's own tokens <b>{n(b.templateTotal)}</b>
        </li>
      </ul>
    </div>
  );
}
