/** The `think` field against qwen2.5, which has no thinking capability (server/routes.go, api.ThinkValue). */
import type { ChatRequest } from "@hopscope/shared/ollama/schemas";
import { OllamaError } from "./ollama-error";

/**
 * `think` as ThinkValue reads it: a bool, or "high"/"medium"/"low" (anything else is a decode error);
 * qwen2.5 has no thinking capability, so any enabled value is refused.
 */
export function checkThink(think: ChatRequest["think"], model: string): void {
  if (think === undefined || think === false) return;
  if (typeof think === "string" && !["high", "medium", "low"].includes(think)) {
    throw new OllamaError(
      400,
      `invalid think value: ${JSON.stringify(think)} (must be "high", "medium", "low", true, or false)`,
    );
  }
  throw new OllamaError(400, `${JSON.stringify(model)} does not support thinking`);
}
