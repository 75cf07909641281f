/**
 * The context window a chat prompt is truncated to, as the imitated Ollama picks it for qwen2.5:7b on a
 * machine with no GPU (the stand-in has none):
 * - a request's `options.num_ctx` wins (server/routes.go `modelOptions`: api.DefaultOptions, then the model's
 *   and the request's options over it);
 * - else `OLLAMA_CONTEXT_LENGTH` (envconfig/config.go `ContextLength`, read by api/types.go `DefaultOptions`);
 * - else the default: from 0.15.5 the env default is 0 and server/routes.go `Serve` picks by total VRAM
 *   (≥ 47 GiB → 262144, ≥ 23 GiB → 32768, else 4096: 4096 with no GPU); 0.7.0 – 0.15.4 a fixed 4096; earlier
 *   2048;
 * - from 0.30.0 the prompt is cut to at most the runner's window (server/routes.go `optionsForPrompt`), which
 *   llm/server.go `NewLlamaServer` caps at the weights' trained length (`qwen2.context_length`, 32768).
 *   Before, chatPrompt used the requested num_ctx as it was.
 */
import { QWEN25_CONTEXT_LENGTH } from "@hopscope/shared/ollama/qwen25-facts";
import { atLeast } from "@hopscope/shared/prompt/version";

export function defaultNumCtx(version: string, envContextLength: number): number {
  if (envContextLength > 0) return envContextLength;
  return atLeast(version, "0.7.0-rc0") ? 4096 : 2048;
}

/** The request's num_ctx, or the default it gets. */
export function requestNumCtx(options: unknown, version: string, envContextLength: number): number {
  const requested = (options as { num_ctx?: unknown } | undefined)?.num_ctx;
  return typeof requested === "number" ? Math.trunc(requested) : defaultNumCtx(version, envContextLength);
}

/** The token limit chatPrompt truncates to for this request. */
export function promptNumCtx(options: unknown, version: string, envContextLength: number): number {
  const numCtx = requestNumCtx(options, version, envContextLength);
  if (!atLeast(version, "0.30.0-rc0")) return numCtx;
  // server/sched.go getRunner raises a num_ctx under 4 to 4; optionsForPrompt lowers only, to the runner's.
  const runnerCtx = Math.max(4, Math.min(numCtx, QWEN25_CONTEXT_LENGTH));
  return Math.min(numCtx, runnerCtx);
}
