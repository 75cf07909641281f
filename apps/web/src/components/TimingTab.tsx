/**
 * Where the time went: the exchange's wall-clock milestones at the tap, and for a model response
 * Ollama's own breakdown (model load, prompt evaluation, generation) with token rates.
 */
import type { ExchangeSummary } from "@hopscope/shared/trace/schemas";
import { formatMs } from "../models/body";
import s from "./TimingTab.module.css";
import { ollamaPhases } from "./Waterfall";

export function TimingTab({ x }: { x: ExchangeSummary }) {
  const t = x.timings;
  const rel = (v: number | null) => (v === null ? "—" : `+${formatMs(v - t.start)}`);
  const phases = ollamaPhases(x);
  const c = x.classification;
  const total = t.end !== null ? t.end - t.start : null;
  return (
    <div class={s.tab}>
      <dl class={s.facts}>
        <dt>started</dt>
        <dd>
          {new Date(t.start).toLocaleTimeString([], { hour12: false })}.
          {String(Math.floor(t.start % 1000)).padStart(3, "0")}
        </dd>
        <dt>request sent</dt>
        <dd>{rel(t.requestEnd)}</dd>
        <dt>first byte back</dt>
        <dd>{rel(t.firstByte)}</dd>
        <dt>complete</dt>
        <dd>{rel(t.end)}</dd>
      </dl>
      {phases && c.kind === "model.chat" ? (
        <section>
          <h3 class={s.heading}>Inside the model server (Ollama's own numbers)</h3>
          <div class={s.bar} title="load · prompt eval · eval">
            <i class={s.load} style={{ flexGrow: phases.load }} />
            <i class={s.prompt} style={{ flexGrow: phases.promptEval }} />
            <i class={s.eval} style={{ flexGrow: phases.eval }} />
          </div>
          <dl class={s.facts}>
            <dt class={s.kLoad}>load the model</dt>
            <dd>
              {formatMs(phases.load)}
              {phases.load > 1000 ? " — a cold start: the weights were loaded into memory" : ""}
            </dd>
            <dt class={s.kPrompt}>read the prompt</dt>
            <dd>
              {formatMs(phases.promptEval)}
              {c.promptEvalCount !== undefined
                ? ` · ${c.promptEvalCount} tokens${phases.promptEval > 0 ? ` · ${Math.round(c.promptEvalCount / (phases.promptEval / 1000))} tokens/s` : ""}`
                : ""}
            </dd>
            <dt class={s.kEval}>write the answer</dt>
            <dd>
              {formatMs(phases.eval)}
              {c.evalCount !== undefined
                ? ` · ${c.evalCount} tokens${phases.eval > 0 ? ` · ${Math.round(c.evalCount / (phases.eval / 1000))} tokens/s` : ""}`
                : ""}
            </dd>
            <dt>total inside Ollama</dt>
            <dd>
              {formatMs(phases.total)}
              {total !== null ? ` of ${formatMs(total)} seen on the wire` : ""}
            </dd>
          </dl>
        </section>
      ) : x.tap === "model" ? (
        <p class={s.note}>This response carried no Ollama durations.</p>
      ) : null}
    </div>
  );
}
