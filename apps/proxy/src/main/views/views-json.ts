/**
 * The views' answers as JSON, with the token ids and offsets spliced in as the tokenizer thread wrote them
 * (../tokens/protocol.ts TokensJson): the API thread never turns the hundreds of thousands of numbers of a big
 * prompt into JSON, nor parses them back. The text is what `JSON.stringify` of the views with their full tokens
 * gives (shared/trace/views ExchangeViewsSchema), made in pieces (../json-pieces.ts).
 */
import type { ExchangeViews } from "@hopscope/shared/trace/views";
import type { TokensJson } from "../tokens/protocol";
import { RawJson, jsonPieces } from "../json-pieces";

/** One exchange's views and the JSON of the full tokens its answer carries. */
export interface ViewsAnswer {
  /** The views; each `tokens` is the count alone (`{ count }`) or null. */
  views: ExchangeViews;
  /** The full tokens' JSON (PromptTokens), carried in place of the count where given. */
  tokens: { prompt?: string; rawOutput?: string };
}

/** A prompt or raw-output view with its `tokens` replaced by the given JSON, if any. */
function withTokens<V extends { tokens: unknown }>(view: V | undefined, json: string | undefined) {
  return view && json !== undefined ? { ...view, tokens: new RawJson(json) } : view;
}

/**
 * The answer of `GET /api/exchanges/:id/views`, piece by piece. With `scriptSafeJson` as `stringify` it is
 * script-safe as a whole (the tokenizer thread writes the tokens' JSON script-safe).
 */
export function viewsJsonPieces(
  { views, tokens }: ViewsAnswer,
  stringify: (value: unknown) => string = JSON.stringify,
): Generator<string> {
  const prompt = withTokens(views.prompt, tokens.prompt);
  const rawOutput = withTokens(views.rawOutput, tokens.rawOutput);
  return jsonPieces({ ...views, prompt, rawOutput }, stringify);
}

/** The answer of `GET /api/exchanges/:id/tokens` (shared/trace/views ExchangeTokensSchema). */
export function exchangeTokensJson(prompt: TokensJson | null, rawOutput: TokensJson | null): string {
  return `{"prompt":${prompt?.json ?? "null"},"rawOutput":${rawOutput?.json ?? "null"}}`;
}
