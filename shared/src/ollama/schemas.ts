/**
 * Ollama's native API shapes (`/api/chat`, `/api/generate`, `/api/tags`, `/api/show`, `/api/version`,
 * `/api/ps`), as zod schemas. One schema per wire shape; types come from `z.infer`.
 *
 * Source: ../shared/reference/ollama-qwen25.md §8 (api/types.go at Ollama HEAD and v0.13.5).
 * Request schemas are `loose` (unknown keys kept) because Ollama ignores keys it does not know and a
 * recorder must never lose bytes; response schemas are loose for the same reason.
 */
import { z } from "zod";

/** JSON Schema fragment as sent by clients; Ollama keeps only the keys its structs know (see prompt/). */
export const JsonSchemaSchema: z.ZodType<Record<string, unknown>> = z.record(z.string(), z.unknown());

/** `tools[].function.parameters`: a JSON Schema object. */
export const ToolParametersSchema = z.looseObject({
  // No default: Ollama renders a missing type as "" and the prompt engine must see what was sent.
  type: z.string().optional(),
  $defs: z.unknown().optional(),
  items: z.unknown().optional(),
  required: z.array(z.string()).nullish(),
  properties: z.record(z.string(), JsonSchemaSchema).nullish(),
});
export type ToolParameters = z.infer<typeof ToolParametersSchema>;

/** One tool offered to the model: `{type:"function", function:{name, description, parameters}}`. */
export const OllamaToolSchema = z.looseObject({
  type: z.string().optional(),
  items: z.unknown().optional(),
  function: z.looseObject({
    name: z.string(),
    description: z.string().optional(),
    parameters: ToolParametersSchema.optional(),
  }),
});
export type OllamaTool = z.infer<typeof OllamaToolSchema>;

/** Arguments of a tool call: always a JSON object on Ollama's native API (a string is a 400). */
export const ToolCallArgumentsSchema = z.record(z.string(), z.unknown());

/** `message.tool_calls[]`. `id` exists from v0.13; `index` is always emitted from v0.13. */
export const OllamaToolCallSchema = z.looseObject({
  id: z.string().optional(),
  function: z.looseObject({
    index: z.number().int().optional(),
    name: z.string(),
    arguments: ToolCallArgumentsSchema,
  }),
});
export type OllamaToolCall = z.infer<typeof OllamaToolCallSchema>;

/** A chat message. Ollama lowercases `role` when it decodes a request. */
export const OllamaMessageSchema = z.looseObject({
  role: z.string().transform((r) => r.toLowerCase()),
  content: z.string().default(""),
  thinking: z.string().optional(),
  images: z.array(z.string()).optional(),
  tool_calls: z.array(OllamaToolCallSchema).optional(),
  tool_name: z.string().optional(),
  tool_call_id: z.string().optional(),
});
export type OllamaMessage = z.infer<typeof OllamaMessageSchema>;

/** `keep_alive`: seconds as a number, or a Go duration string such as "30m". */
export const KeepAliveSchema = z.union([z.number(), z.string()]);

/** `options`: sampling and runtime options (temperature, seed, num_ctx, num_predict, stop, …). */
export const OllamaOptionsSchema = z.record(z.string(), z.unknown());

/** `POST /api/chat` request body. */
export const ChatRequestSchema = z.looseObject({
  model: z.string().min(1, 'model is required, for example "qwen2.5:7b"'),
  messages: z.array(OllamaMessageSchema).default([]),
  tools: z.array(OllamaToolSchema).optional(),
  stream: z.boolean().optional(),
  format: z.union([z.literal("json"), z.string(), JsonSchemaSchema]).optional(),
  keep_alive: KeepAliveSchema.optional(),
  options: OllamaOptionsSchema.optional(),
  think: z.union([z.boolean(), z.string()]).optional(),
  truncate: z.boolean().optional(),
  shift: z.boolean().optional(),
  logprobs: z.boolean().optional(),
  top_logprobs: z.number().int().optional(),
  _debug_render_only: z.boolean().optional(),
});
export type ChatRequest = z.infer<typeof ChatRequestSchema>;

/** Metrics carried by the final (`done: true`) response or chunk. Durations are nanoseconds. */
export const OllamaMetricsSchema = z.object({
  total_duration: z.number().optional(),
  load_duration: z.number().optional(),
  prompt_eval_count: z.number().optional(),
  prompt_eval_duration: z.number().optional(),
  eval_count: z.number().optional(),
  eval_duration: z.number().optional(),
});
export type OllamaMetrics = z.infer<typeof OllamaMetricsSchema>;

/** `POST /api/chat` response (non-streaming), and each NDJSON chunk when streaming. */
export const ChatResponseSchema = z.looseObject({
  model: z.string(),
  created_at: z.string(),
  message: z.looseObject({
    role: z.string(),
    content: z.string(),
    thinking: z.string().optional(),
    tool_calls: z.array(OllamaToolCallSchema).optional(),
  }),
  done: z.boolean(),
  done_reason: z.string().optional(),
  ...OllamaMetricsSchema.shape,
  _debug_info: z.looseObject({ rendered_template: z.string() }).optional(),
});
export type ChatResponse = z.infer<typeof ChatResponseSchema>;

/** `{"error": "..."}`: every Ollama error body, and a mid-stream error line. */
export const OllamaErrorSchema = z.object({ error: z.string() });
export type OllamaError = z.infer<typeof OllamaErrorSchema>;

/** `POST /api/generate` request body. */
export const GenerateRequestSchema = z.looseObject({
  model: z.string().min(1, 'model is required, for example "qwen2.5:7b"'),
  prompt: z.string().optional(),
  suffix: z.string().optional(),
  system: z.string().optional(),
  template: z.string().optional(),
  raw: z.boolean().optional(),
  stream: z.boolean().optional(),
  format: z.union([z.string(), JsonSchemaSchema]).optional(),
  images: z.array(z.string()).optional(),
  keep_alive: KeepAliveSchema.optional(),
  options: OllamaOptionsSchema.optional(),
  context: z.array(z.number()).optional(),
  think: z.union([z.boolean(), z.string()]).optional(),
  _debug_render_only: z.boolean().optional(),
});
export type GenerateRequest = z.infer<typeof GenerateRequestSchema>;

/** `POST /api/generate` response and chunk. */
export const GenerateResponseSchema = z.looseObject({
  model: z.string(),
  created_at: z.string(),
  response: z.string(),
  thinking: z.string().optional(),
  done: z.boolean(),
  done_reason: z.string().optional(),
  context: z.array(z.number()).optional(),
  ...OllamaMetricsSchema.shape,
});
export type GenerateResponse = z.infer<typeof GenerateResponseSchema>;

/** `details` of a model, as in `/api/tags`, `/api/show`, `/api/ps`. */
export const ModelDetailsSchema = z.looseObject({
  parent_model: z.string(),
  format: z.string(),
  family: z.string(),
  families: z.array(z.string()).nullable(),
  parameter_size: z.string(),
  quantization_level: z.string(),
});
export type ModelDetails = z.infer<typeof ModelDetailsSchema>;

/** `GET /api/tags`. */
export const TagsResponseSchema = z.looseObject({
  models: z.array(
    z.looseObject({
      name: z.string(),
      model: z.string(),
      modified_at: z.string(),
      size: z.number(),
      digest: z.string(),
      details: ModelDetailsSchema,
    }),
  ),
});
export type TagsResponse = z.infer<typeof TagsResponseSchema>;

/** `POST /api/show` request and response. */
export const ShowRequestSchema = z.looseObject({
  model: z.string().min(1, 'model is required, for example "qwen2.5:7b"'),
  verbose: z.boolean().optional(),
});
export const ShowResponseSchema = z.looseObject({
  license: z.string().optional(),
  modelfile: z.string().optional(),
  parameters: z.string().optional(),
  template: z.string().optional(),
  system: z.string().optional(),
  /** api.ShowResponse declares these; v0.32.15 fills them only in the modelfile (`RENDERER x`, `PARSER y`). */
  renderer: z.string().optional(),
  parser: z.string().optional(),
  details: ModelDetailsSchema.optional(),
  model_info: z.record(z.string(), z.unknown()).optional(),
  capabilities: z.array(z.string()).optional(),
  modified_at: z.string().optional(),
});
export type ShowResponse = z.infer<typeof ShowResponseSchema>;

/** `GET /api/version`. */
export const VersionResponseSchema = z.looseObject({ version: z.string() });
export type VersionResponse = z.infer<typeof VersionResponseSchema>;

/** `GET /api/ps`. */
export const PsResponseSchema = z.looseObject({
  models: z.array(
    z.looseObject({
      name: z.string(),
      model: z.string(),
      size: z.number(),
      digest: z.string(),
      details: ModelDetailsSchema,
      expires_at: z.string(),
      size_vram: z.number(),
      context_length: z.number().optional(),
    }),
  ),
});
export type PsResponse = z.infer<typeof PsResponseSchema>;

/**
 * Header the stand-in model (apps/model-sim) puts on every response, so recorders and the UI can badge
 * a simulated model. A real Ollama never sends it.
 */
export const SIMULATED_HEADER = "x-hopscope-simulated";
/** Header a host may send to the stand-in to choose a workshop lesson for one request. */
export const LESSON_HEADER = "x-hopscope-lesson";
/**
 * Header the stand-in puts on every response: the Ollama version it imitated, so a recorded exchange says which
 * family's prompt the model saw even when replayed later next to another version. A real Ollama sends none; the
 * recorder then goes by the upstream's `GET /api/version`.
 */
export const SIMULATED_VERSION_HEADER = "x-hopscope-ollama-version";
