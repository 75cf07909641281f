/**
 * One-click comparison on "What the model saw": the same request as each other Ollama family renders it, newer or
 * older. From 0.14 Ollama prints each tool as a Go struct dump (ollama/ollama#14601), so a learner on today's
 * Ollama sees tool lines the article does not show; from 0.20 a nested property keeps its own `required`
 * (ollama/ollama#15214). The reasons that touch this request come first, then the lines that differ, side by side,
 * then the whole other prompt. Recorded text is rendered as text nodes only.
 */
import { useSignal, type Signal } from "@preact/signals";
import { useEffect, useRef } from "preact/hooks";
import type { ExchangeViews } from "@hopscope/shared/trace/views";
import { familyOf } from "@hopscope/shared/prompt/version";
import { familyDiff } from "../models/family-diff";
import { pieces } from "../models/prompt-pieces";
import { Button } from "./Button";
import s from "./FamilyCompare.module.css";

type PromptView = NonNullable<ExchangeViews["prompt"]>;
type Comparison = NonNullable<PromptView["comparisons"]>[number];

/**
 * The other family's prompt, coloured by segment like the main one and linked to the same JSON fields on hover. Not the
 * main PromptText: that one scrolls itself (and the pane) to the user's turn, which would pull the reader away
 * from the comparison they just opened.
 */
function OtherPrompt({ c, hovered }: { c: Comparison; hovered: Signal<string | null> }) {
  return (
    <pre
      class={s.prompt}
      data-testid="other-prompt"
      onMouseOver={(e) =>
        (hovered.value = (e.target as HTMLElement).closest("[data-path]")?.getAttribute("data-path") ?? null)
      }
      onMouseLeave={() => (hovered.value = null)}
    >
      {pieces(c.text, c.segments, undefined).map((p, i) => (
        <span
          key={i}
          class={p.seg ? s.seg : undefined}
          data-kind={p.seg?.kind}
          data-role={p.seg?.role}
          data-path={p.seg?.path}
        >
          {c.text.slice(p.start, p.end)}
        </span>
      ))}
    </pre>
  );
}

/** The family of the view's version; null for a string that is not a version (the comparisons still name it). */
function familyOfOrNull(version: string): ReturnType<typeof familyOf> | null {
  try {
    return familyOf(version);
  } catch {
    return null;
  }
}

/** The changes named across the comparisons, each once: the view's "why" line before anything is opened. */
function reasonsOf(cs: Comparison[]): Comparison["reasons"] {
  const seen = new Map<string, Comparison["reasons"][number]>();
  for (const c of cs) for (const r of c.reasons) if (!seen.has(r.issue) || r.applies) seen.set(r.issue, r);
  return [...seen.values()];
}

function Panel({ p, c, hovered }: { p: PromptView; c: Comparison; hovered: Signal<string | null> }) {
  const diff = familyDiff(p.text, c.text);
  const applying = c.reasons.filter((r) => r.applies);
  const idle = c.reasons.filter((r) => !r.applies);
  return (
    <div class={s.panel} id="family-compare-panel" data-testid="other-family" data-family={c.familyId}>
      {c.same ? (
        <p class={s.reason} data-testid="same-prompt">
          {c.familyLabel} renders this request exactly the same: the model would see the same text.
        </p>
      ) : null}
      {applying.map((r) => (
        <p class={s.reason} key={r.issue} data-testid="reason">
          <a href={r.url} target="_blank" rel="noreferrer noopener">
            {r.issue}
          </a>
          : {r.text}
        </p>
      ))}
      {idle.map((r) => (
        <p class={s.idle} key={r.issue} data-testid="idle-reason">
          <a href={r.url} target="_blank" rel="noreferrer noopener">
            {r.issue}
          </a>{" "}
          does not touch this request: no tool has a nested property with a <code>required</code> list of its own.
        </p>
      ))}
      <p class={s.sizes}>
        <b>now</b> {diff.bytesNow.toLocaleString()} bytes{p.tokens ? `, ${p.tokens.count.toLocaleString()} tokens` : ""}{" "}
        · <b>Ollama {c.ollamaVersion}</b> {diff.bytesThen.toLocaleString()} bytes
        {c.tokenCount !== null ? `, ${c.tokenCount.toLocaleString()} tokens` : ""}
      </p>
      {diff.pairs.map((pair) => (
        <div class={s.pair} key={pair.line} data-testid="changed-line">
          <span class={s.label}>line {pair.line + 1}, now</span>
          <code class={s.now}>{pair.now}</code>
          <span class={s.label}>Ollama {c.ollamaVersion}</span>
          <code class={s.then}>{pair.then}</code>
        </div>
      ))}
      {c.same ? null : (
        <>
          <h3 class={s.heading}>The whole prompt, as Ollama {c.ollamaVersion} renders the same request</h3>
          <OtherPrompt c={c} hovered={hovered} />
        </>
      )}
    </div>
  );
}

export function FamilyCompare({ p, hovered }: { p: PromptView; hovered: Signal<string | null> }) {
  const chosen = useSignal<string | null>(null);
  const panel = useRef<HTMLElement>(null);
  // Opening one shows it: the choice and the panel below it come into view in the detail pane.
  useEffect(() => {
    if (chosen.value !== null) panel.current?.scrollIntoView({ block: "start" });
  }, [chosen.value]);
  const cs = p.comparisons ?? [];
  if (cs.length === 0) return null;
  const c = cs.find((x) => x.familyId === chosen.value) ?? null;
  const mine = familyOfOrNull(p.ollamaVersion);
  return (
    <section class={s.compare} data-testid="family-compare" aria-label="Compare with another Ollama family" ref={panel}>
      <div class={s.bar} role="group" aria-label="Compare what the model saw with another Ollama family">
        <span class={s.lead}>Other Ollama families:</span>
        {cs.map((x) => (
          <Button
            key={x.familyId}
            variant={chosen.value === x.familyId ? "primary" : "default"}
            aria-pressed={chosen.value === x.familyId}
            aria-controls="family-compare-panel"
            title={`${x.familyLabel}${x.newer ? " (newer)" : " (older)"}${x.same ? ": the same prompt" : ""}`}
            onClick={() => (chosen.value = chosen.value === x.familyId ? null : x.familyId)}
          >
            {chosen.value === x.familyId ? "Hide" : "Compare with"} Ollama {x.ollamaVersion}
            {x.same ? " (same)" : ""}
          </Button>
        ))}
        <span class={s.why}>
          {mine ? `${mine.label}: ${mine.what.replaceAll("`", "")}.` : cs[0]!.comparedWith}{" "}
          {reasonsOf(cs).map((r, i) => (
            <span key={r.issue}>
              {i > 0 ? ", " : ""}
              <a href={r.url} target="_blank" rel="noreferrer noopener">
                {r.issue}
              </a>
            </span>
          ))}
        </span>
      </div>
      {c ? <Panel p={p} c={c} hovered={hovered} /> : null}
    </section>
  );
}
