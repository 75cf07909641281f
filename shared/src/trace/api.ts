/**
 * Wire shapes of the recorder's HTTP API (docs/architecture.md, "Recorder HTTP API") that are not
 * trace model shapes themselves. The proxy validates requests with them; the UI parses responses.
 */
import { z } from "zod";
import { AgentDialectSchema } from "../agent/schemas";
import { TapSchema, TraceSummarySchema } from "./schemas";

export const ApiErrorSchema = z.object({ error: z.string() });

export const TapInfoSchema = z.object({ port: z.number().int(), upstream: z.string(), url: z.string() });

/** `GET /api/health`. `live.clients`: WebSocket clients connected now. */
/**
 * Whether recording reaches the disk. Forwarding never depends on it: when the database fails (disk full,
 * read-only, locked) or the recorder falls behind, exchanges are still forwarded but not stored, counted here.
 */
export const StorageHealthSchema = z.object({
  ok: z.boolean(),
  /** What is failing now (null when ok). */
  error: z.string().nullable(),
  /** Epoch ms the current failure began (null when ok). */
  since: z.number().nullable(),
  /** Exchanges forwarded but not stored since the recorder started. */
  notStored: z.number().int(),
  /** Ids of the most recent of them (newest last, at most 20). */
  lastNotStored: z.array(z.number().int()),
  /** Epoch ms the latest of them went unstored (null: none). */
  lastNotStoredAt: z.number().nullable().optional(),
  /** Times the taps stopped reading new requests until recording caught up (backpressure: nothing lost). */
  held: z.number().int().optional(),
});
export type StorageHealth = z.infer<typeof StorageHealthSchema>;

export const HealthSchema = z.object({
  ok: z.boolean(),
  taps: z.record(TapSchema, TapInfoSchema),
  live: z.object({ clients: z.number().int(), seq: z.number().int() }).optional(),
  storage: StorageHealthSchema.optional(),
});
export type Health = z.infer<typeof HealthSchema>;

/** `GET /api/config`. Tap URLs are origins: point a client's base URL at them. */
export const AppConfigSchema = z.object({
  agentTapUrl: z.string(),
  modelTapUrl: z.string(),
  mcpTapUrl: z.string(),
  /** true: the model upstream is the hopscope stand-in; false: a real Ollama; null: not reachable. */
  simulated: z.boolean().nullable(),
  /** The workshop lesson last seen on a model request (`x-hopscope-lesson`), if any. */
  lesson: z.string().nullable(),
  /** The model upstream's `/api/version`, when reachable. */
  ollamaVersion: z.string().nullable().optional(),
});
export type AppConfig = z.infer<typeof AppConfigSchema>;

/** `GET /api/traces?limit&cursor`. */
export const TraceListQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(500).default(50),
  cursor: z.string().optional(),
});
export const TraceListSchema = z.object({
  traces: z.array(TraceSummarySchema),
  nextCursor: z.string().nullable(),
});
export type TraceList = z.infer<typeof TraceListSchema>;

/** `PATCH /api/traces/:id`. */
export const RenameTraceSchema = z.strictObject({ name: z.string().trim().min(1, "name must not be empty").max(200) });

/** `POST /api/traces/:id/save` → `{ savedAs }` (a file name under traces/). */
export const SavedAsSchema = z.object({ savedAs: z.string() });

/** `GET /api/saved`. */
export const SavedFileSchema = z.object({
  file: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  exchangeCount: z.number().int(),
});
export const SavedListSchema = z.object({ files: z.array(SavedFileSchema) });
export type SavedFile = z.infer<typeof SavedFileSchema>;

/** `POST /api/ask`: forwarded to the agent tap as `POST /agent`. */
export const AskSchema = z.strictObject({
  message: z.string().trim().min(1, "message must not be empty"),
  conversationId: z.string().optional(),
  /** Ask the host to speak this dialect to the model for this question (default: its AGENT_DIALECT). */
  dialect: AgentDialectSchema.optional(),
});
export type Ask = z.infer<typeof AskSchema>;
