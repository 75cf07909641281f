/**
 * The views' answers as JSON text, with the token ids and offsets spliced in as the tokenizer thread wrote them
 * (../tokens/protocol.ts TokensJson): the API thread never turns the hundreds of thousands of numbers of a big
 * prompt into JSON, nor parses them back. The text is what `JSON.stringify` of the views with their full tokens
 * gives (shared/trace/views ExchangeViewsSchema), keys in another order.
 */
import type { ExchangeViews } from "@hopscope/shared/trace/views";
import type { TokensJson } from "../tokens/protocol";

/** One exchange's views and the JSON of the full tokens its answer carries. */
export interface ViewsAnswer {
  /** The views; each `tokens` is the count alone (`{ count }`) or null. */
  views: ExchangeViews;
  /** The full tokens' JSON (PromptTokens), carried in place of the count where given. */
  tokens: { prompt?: string; rawOutput?: string };
}

type Stringify = (value: unknown) => string;

/** The JSON of `value` with the keys of `raw` added, their values JSON text already (appended as it is). */
function withRaw(value: object, raw: Record<string, string | undefined>, stringify: Stringify): string {
  const base = stringify(value);
  const extra = Object.entries(raw)
    .filter((e): e is [string, string] => e[1] !== undefined)
    .map(([k, v]) => `${JSON.stringify(k)}:${v}`);
  if (extra.length === 0) return base;
  return base === "{}" ? `{${extra.join(",")}}` : `${base.slice(0, -1)},${extra.join(",")}}`;
}

/** A prompt or raw-output view with its `tokens` replaced by the given JSON, if any. */
function withTokens(view: { tokens: unknown }, json: string | undefined, stringify: Stringify): string {
  if (json === undefined) return stringify(view);
  const { tokens: _count, ...rest } = view;
  return withRaw(rest, { tokens: json }, stringify);
}

/**
 * The answer of `GET /api/exchanges/:id/views`. With `scriptSafeJson` as `stringify` it is script-safe as a whole
 * (the tokenizer thread writes the tokens' JSON script-safe).
 */
export function viewsJson({ views, tokens }: ViewsAnswer, stringify: Stringify = JSON.stringify): string {
  const { prompt, rawOutput, ...rest } = views;
  return withRaw(
    rest,
    {
      prompt: prompt && withTokens(prompt, tokens.prompt, stringify),
      rawOutput: rawOutput && withTokens(rawOutput, tokens.rawOutput, stringify),
    },
    stringify,
  );
}

/** The answer of `GET /api/exchanges/:id/tokens` (shared/trace/views ExchangeTokensSchema). */
export function exchangeTokensJson(prompt: TokensJson | null, rawOutput: TokensJson | null): string {
  return `{"prompt":${prompt?.json ?? "null"},"rawOutput":${rawOutput?.json ?? "null"}}`;
}
