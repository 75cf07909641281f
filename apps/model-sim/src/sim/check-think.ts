/** The `think` field against qwen2.5, which has no thinking capability (server/routes.go, api.ThinkValue). */
import type { ChatRequest } from "@hopscope/shared/ollama/schemas";
import { atLeast } from "@hopscope/shared/prompt/version";
import { OllamaError } from "./ollama-error";

/** api/types.go `ThinkValue.UnmarshalJSON` accepts "max" from 0.22.0 (ollama/ollama#15787). */
const MAX_SINCE = "0.22.0";

/**
 * `think` as ThinkValue reads it: a bool, or a level string (anything else is a decode error). qwen2.5 has
 * no thinking capability, so server/routes.go `ChatHandler` refuses an enabled value with 400 "does not
 * support thinking" — unless the request came through the Anthropic middleware, which sets `relax_thinking`
 * (middleware/anthropic.go `AnthropicMessagesMiddleware`): then ChatHandler logs a warning and sets `think`
 * to nil, and the model runs without thinking (Claude Code's `thinking: {type: "adaptive"}` with
 * `output_config.effort: "high"` becomes `think: "high"` in anthropic.FromMessagesRequest, and is relaxed).
 *
 * @returns whether `think` was relaxed to nil (the caller renders without it)
 */
export function checkThink(
  think: ChatRequest["think"],
  model: string,
  opts: { version: string; relaxThinking: boolean },
): boolean {
  if (think === undefined || think === false) return false;
  const levels = atLeast(opts.version, MAX_SINCE) ? ["high", "medium", "low", "max"] : ["high", "medium", "low"];
  if (typeof think === "string" && !levels.includes(think)) {
    const allowed = levels.map((l) => `"${l}"`).join(", ");
    throw new OllamaError(400, `invalid think value: ${JSON.stringify(think)} (must be ${allowed}, true, or false)`);
  }
  if (opts.relaxThinking) return true;
  throw new OllamaError(400, `${JSON.stringify(model)} does not support thinking`);
}
