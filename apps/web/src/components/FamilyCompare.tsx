/**
 * One-click comparison on "What the model saw": the same request as an older Ollama family rendered it. From 0.14
 * Ollama prints each tool as a Go struct dump (ollama/ollama#14601), so a learner on today's Ollama sees tool lines
 * the article does not show. The lines that differ come first, side by side; the whole older prompt follows.
 * Recorded text is rendered as text nodes only.
 */
import { useSignal, type Signal } from "@preact/signals";
import { useEffect, useRef } from "preact/hooks";
import type { ExchangeViews } from "@hopscope/shared/trace/views";
import { familyDiff } from "../models/family-diff";
import { pieces } from "../models/prompt-pieces";
import { Button } from "./Button";
import s from "./FamilyCompare.module.css";

type PromptView = NonNullable<ExchangeViews["prompt"]>;
type Comparison = NonNullable<PromptView["comparison"]>;

/**
 * The older prompt, coloured by segment like the main one and linked to the same JSON fields on hover. Not the
 * main PromptText: that one scrolls itself (and the pane) to the user's turn, which would pull the reader away
 * from the comparison they just opened.
 */
function OlderPrompt({ c, hovered }: { c: Comparison; hovered: Signal<string | null> }) {
  return (
    <pre
      class={s.prompt}
      data-testid="older-prompt"
      onMouseOver={(e) => (hovered.value = (e.target as HTMLElement).closest("[data-path]")?.getAttribute("data-path") ?? null)}
      onMouseLeave={() => (hovered.value = null)}
    >
      {pieces(c.text, c.segments, undefined).map((p, i) => (
        <span key={i} class={p.seg ? s.seg : undefined} data-kind={p.seg?.kind} data-role={p.seg?.role} data-path={p.seg?.path}>
          {c.text.slice(p.start, p.end)}
        </span>
      ))}
    </pre>
  );
}

export function FamilyCompare({ p, hovered }: { p: PromptView; hovered: Signal<string | null> }) {
  const open = useSignal(false);
  const panel = useRef<HTMLElement>(null);
  // Opening it shows it: the toggle and the panel below it come into view in the detail pane.
  useEffect(() => {
    if (open.value) panel.current?.scrollIntoView({ block: "start" });
  }, [open.value]);
  const c = p.comparison;
  if (!c) return null;
  const diff = open.value ? familyDiff(p.text, c.text) : null;
  return (
    <section class={s.compare} data-testid="family-compare" aria-label={`Compare with ${c.familyLabel}`} ref={panel}>
      <div class={s.bar}>
        <Button variant={open.value ? "primary" : "default"} aria-pressed={open.value} aria-controls="family-compare-panel" onClick={() => (open.value = !open.value)}>
          {open.value ? "Hide" : "Compare with"} Ollama {c.ollamaVersion}
        </Button>
        <span class={s.why}>
          {c.comparedWith} shows the model each tool as a Go struct dump; {c.familyLabel} showed JSON.{" "}
          <a href={c.reason.url} target="_blank" rel="noreferrer noopener">
            {c.reason.issue}
          </a>
        </span>
      </div>
      {diff ? (
        <div class={s.panel} id="family-compare-panel" data-testid="older-family">
          <p class={s.reason}>{c.reason.text}</p>
          <p class={s.sizes}>
            <b>now</b> {diff.bytesNow.toLocaleString()} bytes{p.tokens ? `, ${p.tokens.count.toLocaleString()} tokens` : ""} ·{" "}
            <b>Ollama {c.ollamaVersion}</b> {diff.bytesThen.toLocaleString()} bytes{c.tokenCount !== null ? `, ${c.tokenCount.toLocaleString()} tokens` : ""}
          </p>
          {diff.pairs.map((pair) => (
            <div class={s.pair} key={pair.line} data-testid="changed-line">
              <span class={s.label}>line {pair.line + 1}, now</span>
              <code class={s.now}>{pair.now}</code>
              <span class={s.label}>Ollama {c.ollamaVersion}</span>
              <code class={s.then}>{pair.then}</code>
            </div>
          ))}
          <h3 class={s.heading}>The whole prompt, as Ollama {c.ollamaVersion} rendered the same request</h3>
          <OlderPrompt c={c} hovered={hovered} />
        </div>
      ) : null}
    </section>
  );
}
