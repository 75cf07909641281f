/**
 * `GET /api/exchanges/:id/views`: what the prompt engine derives from a recorded model exchange.
 * Every part is optional: an exchange that is not a chat has none; a part the engine cannot
 * produce is absent and `notes` says why.
 */
import { z } from "zod";

export const PromptSegmentSchema = z.object({
  start: z.number().int(),
  end: z.number().int(),
  kind: z.enum(["template", "special", "system", "tool", "message", "tool-call", "tool-result"]),
  role: z.string().optional(),
  messageIndex: z.number().int().optional(),
  toolIndex: z.number().int().optional(),
  toolCallIndex: z.number().int().optional(),
  path: z.string().optional(),
  /** For a request in another dialect: the JSON pointer into the client's own body that this part came from. */
  clientPath: z.string().optional(),
});

/**
 * The conversion layer of a request Ollama converts before rendering (OpenAI, Anthropic, /v1/completions):
 * what Ollama made of the client's body, and which native field came from which field of it.
 */
export const ConversionViewSchema = z.object({
  dialect: z.string(),
  label: z.string(),
  endpoint: z.enum(["/api/chat", "/api/generate"]),
  /** The native request as Ollama's middleware hands it to the handler (pretty-printed JSON). */
  native: z.string(),
  paths: z.array(z.object({ native: z.string(), dialect: z.string() })),
});
export type ConversionView = z.infer<typeof ConversionViewSchema>;

/**
 * The tokens of a text the view also carries (the prompt, the raw output), without repeating it: where each token
 * starts in that text, and the display of the few tokens that are not a slice of it (a token that holds part of
 * a character shows as `<0xE2>`). `tokenPieces` (apps/web) rebuilds every token's text from these.
 */
export const PromptTokensSchema = z.object({
  count: z.number().int(),
  ids: z.array(z.number().int()),
  /** UTF-16 offset where each token starts in the text (ascending). */
  starts: z.array(z.number().int()),
  /** [token index, display] for each token whose display is not `text.slice(starts[i], starts[i + 1])`. */
  odd: z.array(z.tuple([z.number().int(), z.string()])),
});
export type PromptTokens = z.infer<typeof PromptTokensSchema>;

/**
 * A text's token count alone: what `GET /api/exchanges/:id/views?omit=tokens` carries, the ids and offsets being
 * asked for when shown (`GET /api/exchanges/:id/tokens`).
 */
export const TokenCountSchema = z.object({ count: z.number().int() });
/** The full tokens first: an object with ids is never read as a count alone (zod drops unknown keys). */
const TokensOrCountSchema = z.union([PromptTokensSchema, TokenCountSchema]);

/** A view's tokens with their ids and offsets, or null when it carries the count alone (or none). */
export function fullTokens(t: z.infer<typeof TokensOrCountSchema> | null | undefined): PromptTokens | null {
  return t && "ids" in t ? t : null;
}

/** `GET /api/exchanges/:id/tokens`: the tokens of the prompt and of the raw output, as the full views carry them. */
export const ExchangeTokensSchema = z.object({
  prompt: PromptTokensSchema.nullable(),
  rawOutput: PromptTokensSchema.nullable(),
});
export type ExchangeTokens = z.infer<typeof ExchangeTokensSchema>;

/** One part of the token budget (shared/prompt/token-budget.ts): where the prompt's tokens go. */
export const BudgetPartSchema = z.object({
  key: z.string(),
  kind: z.enum(["system", "tool-instructions", "tool", "message", "generation"]),
  label: z.string(),
  tokens: z.number().int(),
  start: z.number().int(),
  end: z.number().int(),
  toolIndex: z.number().int().optional(),
  messageIndex: z.number().int().optional(),
  role: z.string().optional(),
  isNew: z.boolean(),
});

/** The token budget of the prompt, computed where the prompt is rendered, from one tokenisation of it. */
export const TokenBudgetSchema = z.object({
  parts: z.array(BudgetPartSchema),
  total: z.number().int(),
  toolsTotal: z.number().int(),
  toolCount: z.number().int(),
  newTotal: z.number().int(),
  templateTotal: z.number().int(),
  contextWindow: z.object({ tokens: z.number().int(), source: z.enum(["request", "default"]), note: z.string() }),
});
export type TokenBudgetView = z.infer<typeof TokenBudgetSchema>;

/**
 * The prompt did not fit the context window, and Ollama dropped the oldest messages (server/prompt.go chatPrompt):
 * what went, what it cost, and the context length that made it go.
 */
export const TruncationSchema = z.object({
  /** The context length in force (tokens). */
  contextLength: z.number().int(),
  /**
   * Where that number comes from: the request's `options.num_ctx`, the version's least default, or what the server
   * reported evaluating (`prompt_eval_count`) when that is all that says the window was smaller than the prompt.
   */
  contextSource: z.enum(["request", "default", "evaluated"]),
  /** Request message indices (native) dropped, oldest first. */
  dropped: z.array(z.number().int()),
  /** The client's JSON pointer of each dropped message, in the same order. */
  droppedPaths: z.array(z.string()),
  /** Tokens of the whole render, and of the prompt Ollama rendered after dropping. */
  renderedTokens: z.number().int(),
  keptTokens: z.number().int(),
  /** The last user message (the learner's question) is among the dropped ones. */
  questionDropped: z.boolean(),
  /** Even with every droppable message gone the prompt is longer than the window (the runner then refuses or cuts). */
  stillTooLong: z.boolean(),
  /** The client's dialect carries `num_ctx` (native /api/chat and /api/generate do; OpenAI and Anthropic do not). */
  numCtxInRequest: z.boolean(),
  /** What the server said it evaluated (`prompt_eval_count`), when it said. */
  evaluated: z.number().int().optional(),
});
export type TruncationView = z.infer<typeof TruncationSchema>;

/** Something the client sent that never reaches the model, and where in the client's JSON it was. */
export const UnseenSchema = z.object({
  /** "role": a message the template renders no turn for; "tool": a tool the conversion or template drops;
   * "field": a key Ollama's Go structs have no place for; "option": a setting Ollama ignores for this model. */
  kind: z.enum(["role", "tool", "field", "option"]),
  clientPath: z.string(),
  what: z.string(),
  why: z.string(),
});
export type Unseen = z.infer<typeof UnseenSchema>;

export const VerifiedSchema = z.object({
  match: z.boolean(),
  /** The model server's own render (Ollama `_debug_render_only`). */
  server: z.string(),
  ours: z.string(),
  firstDifference: z.number().int().nullable(),
  /** The version the server reported (the render was compared at that version). */
  ollamaVersion: z.string().optional(),
  /** The endpoint that answered, e.g. "/v1/chat/completions" (the client's own request) or "/api/chat". */
  endpoint: z.string().optional(),
  /** "client": the client's own request was sent (conversion and render checked); "native": the native one hopscope derived. */
  sent: z.enum(["client", "native"]).optional(),
});

/**
 * How a live Ollama checks this prompt (dialects/debug-render.ts): which endpoint renders on `_debug_render_only`
 * for the request's dialect, and, when the dialect's own endpoint does not, why the native request is asked instead.
 */
export const VerifyRouteSchema = z.object({
  endpoint: z.string(),
  sent: z.enum(["client", "native"]),
  note: z.string().optional(),
});

/**
 * The same request as another release family renders it, for the comparison of "what the model saw": one per
 * family other than the view's, when the request has tools (without tools every family renders alike).
 */
export const FamilyComparisonSchema = z.object({
  /** The family compared with: "0.13", "0.14" or "0.20+" (OLLAMA_FAMILIES). */
  familyId: z.string(),
  /** The family's representative release, e.g. "0.13.5". */
  ollamaVersion: z.string(),
  familyLabel: z.string(),
  /** The family of the main view, e.g. "Ollama 0.20+ (today's)". */
  comparedWith: z.string(),
  /** Whether that family is newer than the view's. */
  newer: z.boolean(),
  /** The two prompts are the same text: no change between the families touches this request. */
  same: z.boolean(),
  /** The other family's prompt; empty when `same` (the view already carries it). */
  text: z.string(),
  segments: z.array(PromptSegmentSchema),
  toolFormat: z.enum(["json", "struct-dump"]),
  /** Token count under that family's llama.cpp; null when the tokenizer is unavailable. */
  tokenCount: z.number().int().nullable(),
  /**
   * Each change between the two families: the tracker issue, its address, one sentence, and whether it changes
   * this request's prompt (a nested property's own `required` only matters when a tool has one).
   */
  reasons: z.array(
    z.object({ kind: z.string(), issue: z.string(), url: z.string(), text: z.string(), applies: z.boolean() }),
  ),
});

/** Who produced the prompt text of the view, and from what. */
export const PromptSourceSchema = z.object({
  /**
   * "engine": hopscope's prompt engine ran the model's template; "server": the text is the model server's own
   * `_debug_render_only` render, because a built-in Go renderer (or llama-server's Jinja chat template) builds it.
   */
  renderedBy: z.enum(["engine", "server"]),
  /** The built-in renderer `/api/show` names (Modelfile `RENDERER`), when there is one. */
  renderer: z.string().optional(),
  /** "api-show": the template the upstream's /api/show gave; "builtin-qwen2.5": the engine's copy (no answer). */
  template: z.enum(["api-show", "builtin-qwen2.5"]).optional(),
  /** The model family (/api/show details.family); tokens are counted only for Qwen2.5's vocabulary. */
  family: z.string().optional(),
  /** For a server render: the endpoint that rendered it (a client's own request at its dialect's endpoint, or native). */
  renderedAt: z.string().optional(),
});

/** The prompt the model server built from the request (renderChat), with segments and tokens. */
export const PromptViewSchema = z.object({
  text: z.string(),
  segments: z.array(PromptSegmentSchema),
  ollamaVersion: z.string(),
  toolFormat: z.enum(["json", "struct-dump"]),
  notes: z.array(z.string()),
  tokens: TokensOrCountSchema.nullable(),
  /** Present only when the upstream is a real Ollama (not the stand-in) and answered the check. */
  verified: VerifiedSchema.nullable(),
  /** Where a live Ollama is (or would be) asked for its own render of this request. */
  verifyRoute: VerifyRouteSchema.optional(),
  conversion: ConversionViewSchema.optional(),
  /** The same request in each other family (see FamilyComparisonSchema), oldest first. */
  comparisons: z.array(FamilyComparisonSchema).optional(),
  /** Left out of the views (`?omit=comparisons`): `GET /api/exchanges/:id/families` answers them. */
  comparisonsOnRequest: z.literal(true).optional(),
  source: PromptSourceSchema.optional(),
  /** Where the prompt's tokens go (absent without token counts). */
  budget: TokenBudgetSchema.optional(),
  /** Present when Ollama cut the conversation to fit the context window. */
  truncation: TruncationSchema.optional(),
  /** What the client sent that the model never sees (dropped roles, tools, fields, ignored options). */
  unseen: z.array(UnseenSchema).optional(),
});

/** The text the model generated, rebuilt from the parsed response (Ollama does not send it). */
export const RawOutputViewSchema = z.object({
  text: z.string(),
  reconstructed: z.literal(true),
  tokens: TokensOrCountSchema.nullable(),
});

/** How this prompt relates to the previous chat prompt of the same trace: the shared prefix is reusable (KV cache). */
export const PromptDiffSchema = z.object({
  previousExchangeId: z.number().int(),
  commonPrefixLength: z.number().int(),
  previousLength: z.number().int(),
});

export const ExchangeViewsSchema = z.object({
  prompt: PromptViewSchema.optional(),
  rawOutput: RawOutputViewSchema.optional(),
  diff: PromptDiffSchema.optional(),
  /**
   * Ollama refused the request: before rendering anything (no `prompt`), or the server answered 4xx/5xx after
   * (`prompt` is then what it would have rendered; the model never saw it). Status and message as answered.
   */
  refused: z.object({ status: z.number().int(), message: z.string() }).optional(),
  /** Why a part is missing (e.g. the prompt engine failed on this request). */
  notes: z.array(z.string()).optional(),
});
export type ExchangeViews = z.infer<typeof ExchangeViewsSchema>;

export type FamilyComparison = z.infer<typeof FamilyComparisonSchema>;
/** `GET /api/exchanges/:id/families`: the same request as each other release family renders it (empty without tools). */
export const ExchangeFamiliesSchema = z.object({ comparisons: z.array(FamilyComparisonSchema) });
export type ExchangeFamilies = z.infer<typeof ExchangeFamiliesSchema>;
