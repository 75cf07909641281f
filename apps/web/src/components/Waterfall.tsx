/**
 * A hop's bar in the waterfall: when its exchange ran within the whole trace, the time to first byte,
 * and for a model response Ollama's own phases (model load, prompt evaluation, generation) placed at
 * the end of the exchange, so a cold model load is visible at a glance.
 */
import type { ExchangeSummary } from "@hopscope/shared/trace/schemas";
import { formatMs } from "../models/body";
import type { Hop } from "../models/hops";
import s from "./Waterfall.module.css";

interface Props {
  hop: Hop;
  x: ExchangeSummary;
  spanStart: number;
  spanEnd: number;
}

export interface OllamaPhases {
  load: number;
  promptEval: number;
  eval: number;
  total: number;
}

/** Ollama's durations (nanoseconds on the wire) in milliseconds, when the response carried them. */
export function ollamaPhases(x: ExchangeSummary): OllamaPhases | null {
  const c = x.classification;
  if (c.kind !== "model.chat" || c.totalDuration === undefined) return null;
  return {
    load: (c.loadDuration ?? 0) / 1e6,
    promptEval: (c.promptEvalDuration ?? 0) / 1e6,
    eval: (c.evalDuration ?? 0) / 1e6,
    total: c.totalDuration / 1e6,
  };
}

export function Waterfall({ hop, x, spanStart, spanEnd }: Props) {
  const span = spanEnd - spanStart;
  // A model or agent exchange is two hops (request, response): its bar and duration are drawn once, on the response's hop.
  if (x.tap !== "mcp" && hop.arrows.length === 1 && hop.arrows[0]?.direction === "request") {
    return (
      <div class={s.wf} title="Sent here; the bar and the duration are on the hop of its answer">
        <div class={s.track}>
          <i class={s.start} data-tap={x.tap} style={{ left: `${((x.timings.start - spanStart) / span) * 100}%` }} />
        </div>
      </div>
    );
  }
  const end = x.timings.end ?? x.timings.firstByte ?? x.timings.start;
  const left = ((x.timings.start - spanStart) / span) * 100;
  const width = Math.max(0.6, ((end - x.timings.start) / span) * 100);
  const duration = x.timings.end !== null ? x.timings.end - x.timings.start : null;
  const ttfb = x.timings.firstByte !== null ? ((x.timings.firstByte - x.timings.start) / span) * 100 : null;
  const phases = hop.kind === "model-response" ? ollamaPhases(x) : null;
  const title = [
    duration !== null ? `total ${formatMs(duration)}` : "in progress",
    x.timings.firstByte !== null ? `first byte after ${formatMs(x.timings.firstByte - x.timings.start)}` : "",
    phases
      ? `Ollama: load ${formatMs(phases.load)}, prompt eval ${formatMs(phases.promptEval)}, eval ${formatMs(phases.eval)}`
      : "",
  ]
    .filter(Boolean)
    .join(" · ");
  return (
    <div class={s.wf} title={title}>
      <div class={s.track}>
        <div
          class={`${s.bar} ${duration === null ? s.live : ""}`}
          data-tap={x.tap}
          style={{ left: `${left}%`, width: `${width}%` }}
        >
          {ttfb !== null && hop.kind !== "mcp" ? (
            <i class={s.ttfb} style={{ left: `${(ttfb / width) * 100}%` }} />
          ) : null}
          {phases ? (
            <span
              class={s.phases}
              style={{ width: `${duration ? Math.min(100, (phases.total / duration) * 100) : 100}%` }}
            >
              <i class={s.load} style={{ flexGrow: phases.load }} />
              <i class={s.prompt} style={{ flexGrow: phases.promptEval }} />
              <i class={s.eval} style={{ flexGrow: phases.eval }} />
            </span>
          ) : null}
        </div>
      </div>
      <span class={s.time}>{duration !== null ? formatMs(duration) : "…"}</span>
    </div>
  );
}
