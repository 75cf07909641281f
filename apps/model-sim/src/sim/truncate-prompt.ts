/**
 * Ollama's context-window truncation (server/prompt.go `chatPrompt`): when the rendered prompt has more
 * tokens than `num_ctx`, the oldest messages are dropped — system messages and the last message always
 * kept — until it fits. `prompt_eval_count` and what the model "sees" are then the truncated prompt's,
 * so the stand-in decides from the same shortened conversation a real model would.
 */
import type { OllamaMessage } from "@hopscope/shared/ollama/schemas";
import { featuresFor } from "@hopscope/shared/prompt/version";
import type { PromptEngine } from "./engine";

export interface FittedPrompt {
  text: string;
  tokenCount: number;
  /** The (parsed) messages the prompt was rendered from, the model's SYSTEM first when Ollama prepends it. */
  messages: OllamaMessage[];
  /** How many messages were dropped to fit. */
  dropped: number;
}

type Body = Record<string, unknown> & { messages?: unknown; options?: unknown; truncate?: unknown };

/**
 * @param raw the request body as sent (rendered, because it is what Go decodes)
 * @param parsed the same messages after validation (what the policy reads: roles lowercased, defaults set)
 */
export function fitPrompt(
  raw: Body,
  parsed: OllamaMessage[],
  engine: PromptEngine,
  ollamaVersion: string,
): FittedPrompt {
  const rawMsgs = (Array.isArray(raw.messages) ? raw.messages : []) as Record<string, unknown>[];
  // ChatHandler prepends the model's SYSTEM before truncating, so it is counted and kept like any system message.
  const prepend = parsed[0]?.role !== "system";
  const system = { role: "system", content: engine.system };
  const all = prepend ? [system, ...parsed] : parsed;
  const allRaw = prepend ? [system, ...rawMsgs] : rawMsgs;

  // Indices of the messages rendered when the conversation starts at message i.
  const keep = (i: number) => [...all.keys()].filter((j) => j >= i || all[j]!.role === "system");
  const render = (indices: number[]) => {
    const text = engine.render({ ...raw, messages: indices.map((j) => allRaw[j]) } as never, ollamaVersion);
    return { text, tokenCount: engine.tokenizer.count(text) };
  };

  const full = render(keep(0));
  const numCtx = (raw.options as { num_ctx?: unknown } | undefined)?.num_ctx;
  const limit = typeof numCtx === "number" ? numCtx : featuresFor(ollamaVersion).defaultNumCtx;
  if (raw.truncate === false || full.tokenCount <= limit) return { ...full, messages: all, dropped: 0 };

  let n = all.length - 1;
  for (let i = n - 1; i >= 0; i--) {
    if (render(keep(i)).tokenCount > limit) break;
    n = i;
  }
  const kept = keep(n);
  return { ...render(kept), messages: kept.map((j) => all[j]!), dropped: all.length - kept.length };
}
