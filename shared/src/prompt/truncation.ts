/**
 * Ollama's context-window truncation, as server/prompt.go `chatPrompt` does it: render the conversation from
 * message i on (the system messages before i kept, moved to the front) for i = 0, 1, …; the first i whose
 * prompt fits in `num_ctx` tokens wins; the last message is always kept, even when it alone does not fit.
 * `truncate: false` in a native request turns this off. What still does not fit after that is the runner's
 * business (llm/llama_server.go `completionPromptForRequest`: refused, or tokens cut from the middle).
 *
 * Message indices here are the request's own; the model's SYSTEM that Ollama prepends is a system message,
 * always kept, so it changes nothing about which request message goes.
 */

/** What Ollama dropped to fit the window (its wire shape: TruncationSchema in trace/views.ts). */
export interface Truncation {
  contextLength: number;
  contextSource: "request" | "default" | "evaluated";
  dropped: number[];
  droppedPaths: string[];
  renderedTokens: number;
  keptTokens: number;
  questionDropped: boolean;
  stillTooLong: boolean;
  numCtxInRequest: boolean;
  evaluated?: number;
}

export interface TruncationRule {
  /** Roles of the request's messages, in order. */
  roles: readonly string[];
  /** Whether the prompt rendered from message `start` on (systems before it kept) fits the context window. */
  fits: (start: number) => boolean;
  /**
   * Where to look first (an estimate of the first start that fits): the search walks from there. The prompt's
   * token count only falls as messages go, so the walk finds the same start as Ollama's loop from 0.
   */
  guess?: number;
}

/** The index of the first message kept whole (0: nothing dropped), as `chatPrompt`'s loop chooses it. */
export function truncationStart(rule: TruncationRule): number {
  const last = rule.roles.length - 1;
  if (last <= 0) return 0;
  const memo = new Map<number, boolean>();
  const fits = (i: number): boolean => {
    let hit = memo.get(i);
    if (hit === undefined) memo.set(i, (hit = rule.fits(i)));
    return hit;
  };
  let i = Math.min(Math.max(rule.guess ?? 0, 0), last);
  if (fits(i)) {
    while (i > 0 && fits(i - 1)) i--;
    return i;
  }
  while (i < last && !fits(i)) i++;
  return i;
}

/** The request messages rendered when the conversation starts at `start`: the system messages before it, then the rest. */
export function keptMessages(roles: readonly string[], start: number): number[] {
  return roles.flatMap((role, i) => (i >= start || role === "system" ? [i] : []));
}

/**
 * A first guess at the start that fits, from each message's share of the whole prompt's tokens (the token budget):
 * dropping message j saves about its tokens. Exact for templates that render each message on its own.
 */
export function estimatedStart(
  roles: readonly string[],
  messageTokens: ReadonlyMap<number, number>,
  total: number,
  numCtx: number,
): number {
  let tokens = total;
  for (let i = 0; i < roles.length - 1; i++) {
    if (tokens <= numCtx) return i;
    if (roles[i] !== "system") tokens -= messageTokens.get(i) ?? 0;
  }
  return Math.max(0, roles.length - 1);
}
