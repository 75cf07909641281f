/**
 * The agent host's own HTTP API (apps/host, `POST /agent`, `GET /health`), as zod schemas. The host
 * validates requests with them; the `ask` CLI, the recorder's `/api/ask` and the timeline validate the
 * answers with them. One schema per wire shape; types come from `z.infer`.
 */
import { z } from "zod";

/** `POST /agent` body. `conversationId` continues a conversation the host still remembers. */
/**
 * Which API the host speaks to the model server: Ollama's own `/api/chat`, OpenAI's `/v1/chat/completions`
 * or Anthropic's `/v1/messages` (Ollama serves all three; the same turn becomes the same prompt).
 */
export const AgentDialectSchema = z.enum(["ollama", "openai", "anthropic"], {
  error: 'dialect must be "ollama", "openai" or "anthropic"',
});
export type AgentDialect = z.infer<typeof AgentDialectSchema>;

export const AgentRequestSchema = z.strictObject({
  message: z
    .string({ error: 'message must be a string, for example {"message": "Add buy milk to my notes"}' })
    .trim()
    .min(1, 'message must not be empty, for example {"message": "Add buy milk to my notes"}'),
  conversationId: z
    .string({ error: "conversationId must be a string returned by an earlier /agent answer" })
    .min(1, "conversationId must not be empty: leave it out to start a new conversation")
    .optional(),
  /** Speak this dialect for this question instead of the host's AGENT_DIALECT. */
  dialect: AgentDialectSchema.optional(),
});
export type AgentRequest = z.infer<typeof AgentRequestSchema>;

/**
 * One tool call the host ran for the model: the MCP tool's text `output`, and `isError` when the tool
 * failed (`isError: true` in the MCP result) or the MCP server answered with a protocol error (then
 * `output` is that error as text, e.g. `Error: Unknown tool: x (-32602)`). Either way the model saw it.
 */
export const AgentToolCallSchema = z.object({
  name: z.string(),
  arguments: z.record(z.string(), z.unknown()),
  output: z.string(),
  isError: z.boolean(),
});
export type AgentToolCall = z.infer<typeof AgentToolCallSchema>;

/** `POST /agent` 200 answer. `steps` counts the `/api/chat` calls made for this message. */
export const AgentResponseSchema = z.object({
  reply: z.string(),
  conversationId: z.string(),
  steps: z.number().int().nonnegative(),
  toolCalls: z.array(AgentToolCallSchema),
});
export type AgentResponse = z.infer<typeof AgentResponseSchema>;

/**
 * Every error answer of the host: `error` says what was wrong and how to fix it. When the failure
 * happened after the loop started, the work done so far comes along (the tool calls really ran).
 */
export const AgentErrorSchema = z.object({
  error: z.string(),
  conversationId: z.string().optional(),
  steps: z.number().int().nonnegative().optional(),
  toolCalls: z.array(AgentToolCallSchema).optional(),
});
export type AgentError = z.infer<typeof AgentErrorSchema>;

/** `GET /health`: where the host sends its calls, so a learner can check the wiring. */
export const AgentHealthSchema = z.object({
  ok: z.literal(true),
  model: z.string(),
  ollamaUrl: z.string(),
  mcpUrl: z.string(),
  maxSteps: z.number().int().positive(),
  stream: z.boolean(),
  lesson: z.string().nullable(),
});
export type AgentHealth = z.infer<typeof AgentHealthSchema>;
