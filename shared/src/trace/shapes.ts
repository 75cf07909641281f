/**
 * `GET /api/exchanges/:id/shapes`: one model turn in the three shapes of the article's Part 1.3 — Ollama's own
 * `/api/chat`, OpenAI's `/v1/chat/completions` and Anthropic's `/v1/messages` — side by side: each request, each
 * response, and the one prompt they all become. A shape is "recorded" when a turn with exactly this prompt was
 * recorded in that dialect (real bytes), else "converted" (written by the shared conversion layer from this one).
 */
import { z } from "zod";

export const ShapeSchema = z.object({
  dialect: z.enum(["ollama", "openai", "anthropic"]),
  label: z.string(),
  path: z.string(),
  source: z.enum(["recorded", "converted"]),
  /** The recorded exchange these bytes are from ("recorded" only). */
  exchangeId: z.number().int().optional(),
  request: z.string(),
  response: z.string().nullable(),
  /** How this dialect carries the model's tool call (the lesson: object, JSON string, tool_use block). */
  toolCallShape: z.string().nullable(),
  /** True when this request renders to exactly the shared prompt. */
  samePrompt: z.boolean(),
});
export type Shape = z.infer<typeof ShapeSchema>;

export const ThreeShapesSchema = z.object({
  exchangeId: z.number().int(),
  prompt: z.string(),
  ollamaVersion: z.string(),
  shapes: z.array(ShapeSchema),
  notes: z.array(z.string()),
});
export type ThreeShapes = z.infer<typeof ThreeShapesSchema>;
