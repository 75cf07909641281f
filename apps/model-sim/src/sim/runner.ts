/**
 * The stand-in for Ollama's runner: it "generates" a given output one Qwen token at a time, at the
 * configured pace, and reports what it did the way the runner does — text per token, then a final
 * chunk with counts and measured durations (`eval_count` = generated tokens + the end-of-generation
 * token, as llama.cpp counts it).
 */
import type { QwenTokenizer as Tokenizer } from "@hopscope/shared/tokens/qwen";
import { nowNs } from "./go-time";
import { sleep } from "./sleep";

export interface RunnerEvent {
  type: "token" | "done";
  /** Index of the token just generated (token events). */
  index?: number;
  total: number;
}

export interface RunnerOptions {
  tokensPerSecond: number;
  /** `options.num_predict`: stop after this many tokens with done_reason "length". */
  numPredict?: number;
  signal?: AbortSignal;
  /** Told about every generated token, before it is sent: lets tests see the order of events. */
  onEvent?: (e: RunnerEvent) => void;
}

export type RunnerChunk =
  | { done: false; content: string }
  | { done: true; content: ""; doneReason: "stop" | "length"; evalCount: number; evalDurationNs: number };

/**
 * Text per token, decoded incrementally so a character split across byte-level tokens comes out whole
 * (a trailing U+FFFD means "wait for the next token").
 */
export async function* runTokens(
  tokenizer: Tokenizer,
  output: string,
  opts: RunnerOptions,
): AsyncGenerator<RunnerChunk> {
  const ids = tokenizer.encode(output);
  const limit =
    opts.numPredict !== undefined && opts.numPredict >= 0 ? Math.min(opts.numPredict, ids.length) : ids.length;
  const truncated =
    limit < ids.length || (opts.numPredict !== undefined && opts.numPredict >= 0 && opts.numPredict <= ids.length);
  const delayMs = opts.tokensPerSecond > 0 ? 1000 / opts.tokensPerSecond : 0;
  const start = nowNs();
  let sent = "";
  for (let i = 0; i < limit; i++) {
    await sleep(delayMs, opts.signal);
    opts.onEvent?.({ type: "token", index: i, total: limit });
    const text = tokenizer.decode(ids.slice(0, i + 1));
    if (text.endsWith("\uFFFD") && i + 1 < limit) continue;
    const piece = text.slice(sent.length);
    sent = text;
    if (piece !== "") yield { done: false, content: piece };
  }
  // Sampling the end-of-generation token costs one more step, unless num_predict cut it short.
  if (!truncated) await sleep(delayMs, opts.signal);
  opts.onEvent?.({ type: "done", total: limit });
  yield {
    done: true,
    content: "",
    doneReason: truncated ? "length" : "stop",
    evalCount: truncated ? limit : limit + 1,
    evalDurationNs: nowNs() - start,
  };
}
