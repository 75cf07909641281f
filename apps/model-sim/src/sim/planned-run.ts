/**
 * What a planned /api/chat or /api/generate run carries from its checks to its chunks: the text the runner
 * "generates", its pace, and the counts and times the final chunk reports.
 */
import { nowNs } from "./go-time";
import type { ResolvedModel } from "./model-name";
import { runTokens, type RunnerChunk } from "./runner";
import type { SimDeps } from "./sim-deps";
import type { Metrics } from "./wire-shapes";

export interface PlannedRun {
  model: ResolvedModel;
  deps: SimDeps;
  output: string;
  signal: AbortSignal | undefined;
  keepMs: number;
  /** The slow lesson: its own load time and pace. */
  slow: boolean;
  /** nowNs() when the request came in, and when the model was loaded. */
  start: number;
  loaded: number;
  promptEvalCount: number;
  promptEvalDurationNs: number;
}

/** The runner's tokens of the output at the model's pace, stopping at `options.num_predict` when it is given. */
export function runOutput(
  run: PlannedRun,
  options: { num_predict?: unknown } | undefined,
): AsyncGenerator<RunnerChunk> {
  const { config, engine } = run.deps;
  return runTokens(engine.tokenizer, run.output, {
    tokensPerSecond: run.slow ? config.slowTokensPerSecond : config.tokensPerSecond,
    numPredict: typeof options?.num_predict === "number" ? options.num_predict : undefined,
    signal: run.signal,
    onEvent: run.deps.onRunnerEvent,
  });
}

/** The final chunk's metrics: times since the request came in, the prompt's count, the runner's own. */
export function runMetrics(run: PlannedRun, done: Extract<RunnerChunk, { done: true }>): Metrics {
  return {
    totalDurationNs: nowNs() - run.start,
    loadDurationNs: run.loaded - run.start,
    promptEvalCount: run.promptEvalCount,
    promptEvalDurationNs: run.promptEvalDurationNs,
    evalCount: done.evalCount,
    evalDurationNs: done.evalDurationNs,
  };
}
