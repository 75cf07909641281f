/**
 * What the recorder says about a rendered prompt beyond its text, computed once where the prompt is built: the
 * token budget (named by the native request's tool names, so every dialect shows real names), whether Ollama cut
 * the conversation to fit the context window (./../prompt/truncation.ts), and what the client sent that the model
 * never sees (./unseen.ts).
 */
import { type RenderOptions, renderChat, templateCanThink } from "../prompt/render";
import { contextWindow, tokenBudget, type TokenBudget } from "../prompt/token-budget";
import { type Truncation, estimatedStart, keptMessages, truncationStart } from "../prompt/truncation";
import type { Dialect } from "./dialect";
import { isObject, type Json } from "./go-decode";
import type { DialectRender } from "./render-dialect";
import { type UnseenItem, unseenParts } from "./unseen";

export interface PromptFactsInput {
  dialect: Dialect;
  /** The client's body as sent. */
  client: unknown;
  render: DialectRender;
  /** The render options the prompt was built with (version, the model's template and SYSTEM). */
  opts: RenderOptions;
  /** One tokenisation of `render.text`: its token count and where each token starts. */
  count: (text: string) => number;
  tokenStarts: readonly number[];
  /** What the server said it evaluated (`prompt_eval_count`), when it said. */
  evaluated?: number | undefined;
  /** The prompt starts with text the previous request of the trace also sent: a cached prefix explains fewer tokens. */
  sharesPrefix: boolean;
  /** Characters before this were in the previous request's prompt too. */
  newFrom?: number | undefined;
}

export interface PromptFacts {
  budget: TokenBudget;
  truncation?: Truncation;
  unseen: UnseenItem[];
}

const toolNamesOf = (native: Json): string[] =>
  (Array.isArray(native.tools) ? native.tools : []).map((t) =>
    isObject(t) && isObject(t.function) && typeof t.function.name === "string" ? t.function.name : "?",
  );

function numCtxOf(native: Json): number | undefined {
  const n = isObject(native.options) ? native.options.num_ctx : undefined;
  return typeof n === "number" && n > 0 ? n : undefined;
}

/** The native dialects carry `options.num_ctx`; the OpenAI and Anthropic conversions never set it. */
const carriesNumCtx = (d: Dialect): boolean => d === "ollama" || d === "ollama-generate";

/**
 * The window the prompt had to fit, or null when nothing says it did not fit: the request's num_ctx or the version's
 * least default when the render is longer; else, for a first request, what the server evaluated when that is less.
 */
function limitFor(
  input: PromptFactsInput,
  total: number,
): { tokens: number; source: Truncation["contextSource"] } | null {
  const native = input.render.converted.native;
  if (native.truncate === false || input.render.converted.endpoint !== "/api/chat") return null;
  const { evaluated } = input;
  if (evaluated !== undefined && evaluated >= total) return null;
  const ctx = contextWindow(input.render.ollamaVersion, numCtxOf(native));
  if (total > ctx.tokens) return { tokens: ctx.tokens, source: ctx.source };
  if (evaluated !== undefined && !input.sharesPrefix) return { tokens: evaluated, source: "evaluated" };
  return null;
}

function truncationOf(input: PromptFactsInput, budget: TokenBudget): Truncation | undefined {
  const limit = limitFor(input, budget.total);
  if (!limit) return undefined;
  const native = input.render.converted.native;
  const messages = (Array.isArray(native.messages) ? native.messages : []) as Json[];
  const roles = messages.map((m) => (typeof m.role === "string" ? m.role : ""));
  const countFrom = new Map<number, number>([[0, budget.total]]);
  const tokensFrom = (start: number): number => {
    let n = countFrom.get(start);
    if (n === undefined) {
      const kept = keptMessages(roles, start).map((i) => messages[i]);
      n = input.count(renderChat({ ...native, messages: kept }, input.opts).text);
      countFrom.set(start, n);
    }
    return n;
  };
  const perMessage = new Map(
    budget.parts.flatMap((p) => (p.messageIndex !== undefined ? [[p.messageIndex, p.tokens]] : [])),
  );
  const start = truncationStart({
    roles,
    fits: (i) => tokensFrom(i) <= limit.tokens,
    guess: estimatedStart(roles, perMessage, budget.total, limit.tokens),
  });
  const keptTokens = tokensFrom(start);
  const stillTooLong = keptTokens > limit.tokens;
  const dropped = roles.flatMap((role, i) => (i < start && role !== "system" ? [i] : []));
  if (dropped.length === 0 && !stillTooLong) return undefined;
  const question = roles.lastIndexOf("user");
  return {
    contextLength: limit.tokens,
    contextSource: limit.source,
    dropped,
    droppedPaths: dropped.map((i) => input.render.converted.paths.map(`/messages/${i}`) ?? `/messages/${i}`),
    renderedTokens: budget.total,
    keptTokens,
    questionDropped: question >= 0 && dropped.includes(question),
    stillTooLong,
    numCtxInRequest: carriesNumCtx(input.dialect),
    ...(input.evaluated !== undefined ? { evaluated: input.evaluated } : {}),
  };
}

export function promptFacts(input: PromptFactsInput): PromptFacts {
  const { render } = input;
  const native = render.converted.native;
  const budget = tokenBudget({
    text: render.text,
    segments: render.segments,
    tokenStarts: input.tokenStarts,
    toolNames: toolNamesOf(native),
    ollamaVersion: render.ollamaVersion,
    ...(input.newFrom !== undefined ? { newFrom: input.newFrom } : {}),
    ...(numCtxOf(native) !== undefined ? { numCtx: numCtxOf(native)! } : {}),
  });
  const truncation = truncationOf(input, budget);
  const unseen = unseenParts({
    dialect: input.dialect,
    client: input.client,
    converted: render.converted,
    segments: render.segments,
    droppedKeys: render.droppedKeys ?? [],
    canThink: templateCanThink(input.opts.template),
  });
  return { budget, ...(truncation ? { truncation } : {}), unseen };
}
