/**
 * Ollama's context-window truncation (server/prompt.go `chatPrompt`): when the rendered prompt has more
 * tokens than num_ctx (./context-length.ts), messages are dropped from the front until it fits. Its loop
 * tries i = 0, 1, … and renders the system messages before i followed by messages[i:]; the first i that
 * fits wins, and at the last message it stops whatever the size. So system messages are always kept and
 * the last message always kept — and when the last message is itself a system message sent after the
 * question, the question goes and only system text is left (Claude Code's long prompts meet this).
 * `prompt_eval_count` and what the model "sees" are then the truncated prompt's, so the stand-in decides
 * from the same shortened conversation a real model would.
 */
import type { OllamaMessage } from "@hopscope/shared/ollama/schemas";
import type { PromptEngine } from "./engine";
import { promptNumCtx } from "./context-length";

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
  envContextLength: number,
): FittedPrompt {
  const rawMsgs = (Array.isArray(raw.messages) ? raw.messages : []) as Record<string, unknown>[];
  // ChatHandler prepends the model's SYSTEM before truncating, so it is counted and kept like any system message.
  const prepend = parsed[0]?.role !== "system";
  const system = { role: "system", content: engine.system };
  const all = prepend ? [system, ...parsed] : parsed;
  const allRaw = prepend ? [system, ...rawMsgs] : rawMsgs;

  // chatPrompt's messages when the conversation starts at message i: the system messages before i, then all from i.
  const keep = (i: number) => [...all.keys()].filter((j) => j >= i || all[j]!.role === "system");
  const render = (indices: number[]) => {
    const text = engine.render({ ...raw, messages: indices.map((j) => allRaw[j]) } as never, ollamaVersion);
    return { text, tokenCount: engine.tokenizer.count(text) };
  };

  const limit = promptNumCtx(raw.options, ollamaVersion, envContextLength);
  const last = all.length - 1;
  // `truncate: false` (server/routes.go ChatHandler) renders everything, whatever the size.
  for (let i = 0; ; i++) {
    const fitted = render(keep(i));
    if (raw.truncate === false || fitted.tokenCount <= limit || i >= last) {
      const kept = keep(i);
      return { ...fitted, messages: kept.map((j) => all[j]!), dropped: all.length - kept.length };
    }
  }
}
