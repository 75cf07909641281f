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

export const PromptTokensSchema = z.object({
  count: z.number().int(),
  ids: z.array(z.number().int()),
  pieces: z.array(z.string()),
});

export const VerifiedSchema = z.object({
  match: z.boolean(),
  /** The model server's own render (Ollama `_debug_render_only`). */
  server: z.string(),
  ours: z.string(),
  firstDifference: z.number().int().nullable(),
  /** The version the server reported (the render was compared at that version). */
  ollamaVersion: z.string().optional(),
});

/** The prompt the model server built from the request (renderChat), with segments and tokens. */
export const PromptViewSchema = z.object({
  text: z.string(),
  segments: z.array(PromptSegmentSchema),
  ollamaVersion: z.string(),
  toolFormat: z.enum(["json", "struct-dump"]),
  notes: z.array(z.string()),
  tokens: PromptTokensSchema.nullable(),
  /** Present only when the upstream is a real Ollama (not the stand-in) and answered the check. */
  verified: VerifiedSchema.nullable(),
  conversion: ConversionViewSchema.optional(),
});

/** The text the model generated, rebuilt from the parsed response (Ollama does not send it). */
export const RawOutputViewSchema = z.object({
  text: z.string(),
  reconstructed: z.literal(true),
  tokens: PromptTokensSchema.nullable(),
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
  /** Ollama would refuse the request before rendering anything: its status and message (same as the dialect's error body). */
  refused: z.object({ status: z.number().int(), message: z.string() }).optional(),
  /** Why a part is missing (e.g. the prompt engine failed on this request). */
  notes: z.array(z.string()).optional(),
});
export type ExchangeViews = z.infer<typeof ExchangeViewsSchema>;
