/**
 * `POST /api/replay`: play a saved trace (a bundle, or the id of a stored trace) into the live feed at its
 * recorded pace, as a new trace, so every open timeline sees it happen. Used by `hopscope replay` in talks.
 */
import { z } from "zod";

export const ReplayRequestSchema = z.union([
  z.strictObject({ bundle: z.unknown(), speed: z.number().positive().max(100).default(1) }),
  z.strictObject({ traceId: z.string().min(1), speed: z.number().positive().max(100).default(1) }),
]);
export type ReplayRequest = z.infer<typeof ReplayRequestSchema>;

export const ReplayStartedSchema = z.object({
  traceId: z.string(),
  name: z.string(),
  exchangeCount: z.number().int(),
  /** Recorded duration, first request to last response, at speed 1. */
  durationMs: z.number(),
});
export type ReplayStarted = z.infer<typeof ReplayStartedSchema>;

/** `GET /api/replay`: the replays playing now, so a page opened in the middle of one can follow it. */
export const ReplaysPlayingSchema = z.object({
  replays: z.array(ReplayStartedSchema.extend({ speed: z.number(), startedAt: z.number() })),
});
export type ReplaysPlaying = z.infer<typeof ReplaysPlayingSchema>;
