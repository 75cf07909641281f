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
  /** The prompt's token ids, so the runner's cut does not tokenise it again. */
  tokens: number[];
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
  // Starts that keep the same messages (only system messages between them) render the same prompt: once.
  const rendered = new Map<number, { text: string; tokens: number[]; kept: number[] }>();
  const render = (i: number) => {
    const kept = keep(i);
    let hit = rendered.get(kept.length);
    if (!hit) {
      const text = engine.render({ ...raw, messages: kept.map((j) => allRaw[j]) } as never, ollamaVersion);
      hit = { text, tokens: engine.tokenizer.encode(text), kept };
      rendered.set(kept.length, hit);
    }
    return hit;
  };
  const fitted = (i: number): FittedPrompt => {
    const { text, tokens, kept } = render(i);
    return {
      text,
      tokens,
      tokenCount: tokens.length,
      messages: kept.map((j) => all[j]!),
      dropped: all.length - kept.length,
    };
  };

  // `truncate: false` (server/routes.go ChatHandler) renders everything, whatever the size.
  if (raw.truncate === false) return fitted(0);
  const limit = promptNumCtx(raw.options, ollamaVersion, envContextLength);
  return fitted(firstFitting(all.length - 1, (i) => render(i).tokens.length <= limit));
}

/**
 * chatPrompt's loop takes the first start, from the front, whose prompt fits, else the last message. A later
 * start keeps a subset of an earlier one's messages, and in qwen2.5's prompt each message (or run of same-role
 * messages, which Ollama's template joins) is its own `<|im_start|>…<|im_end|>` span that the tokenizer never
 * reads across, so a later start never has more tokens: the starts that fit are a tail of the list. Searching
 * it from the end (doubling the step, then halving the gap) finds the same start from a logarithmic number of
 * prompts, each about the window's size but the first that overflows, where the loop renders and tokenises the
 * whole conversation once per message (test/truncate-search.test.ts holds the two to the same answers).
 */
function firstFitting(last: number, fits: (i: number) => boolean): number {
  if (!fits(last)) return last;
  let fit = last;
  let step = 1;
  let tooBig = -1;
  while (fit > 0) {
    const i = Math.max(0, fit - step);
    if (!fits(i)) {
      tooBig = i;
      break;
    }
    fit = i;
    step *= 2;
  }
  while (fit - tooBig > 1) {
    const mid = Math.floor((tooBig + fit) / 2);
    if (fits(mid)) fit = mid;
    else tooBig = mid;
  }
  return fit;
}
