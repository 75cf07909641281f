/**
 * The audience view's wire shapes. The presenter's UI publishes where it is
 * (`PUT /api/audience/position` on the recorder's loopback API); the audience listener mirrors it to
 * every viewer on its read-only feed (`/j/<code>/feed`). A viewer may only send `ping`.
 */
import { z } from "zod";
import { ServerFrameSchema } from "./schemas";

/** Where the presenter is: the open trace and hop, presenter mode, and the replay (null when not replaying). */
export const PresenterPositionSchema = z.strictObject({
  traceId: z.string().max(200).nullable(),
  hop: z.number().int().min(1).nullable(),
  present: z.boolean(),
  replay: z.strictObject({ cursor: z.number(), playing: z.boolean(), speed: z.number().positive() }).nullable(),
});
export type PresenterPosition = z.infer<typeof PresenterPositionSchema>;

/** Frames the audience listener sends to a viewer. */
export const AudienceServerFrameSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("position"), seq: z.number().int(), position: PresenterPositionSchema }),
  z.object({ type: z.literal("ended"), message: z.string() }),
  /** A live-feed event of a trace the speaker has shown (a hop recorded now), numbered by the audience feed. */
  z.object({ type: z.literal("live"), frame: ServerFrameSchema }),
]);
export type AudienceServerFrame = z.infer<typeof AudienceServerFrameSchema>;

/** The only frame a viewer may send; anything else gets it dropped. */
export const AudienceClientFrameSchema = z.strictObject({ type: z.literal("ping") });

/** `GET /api/audience` (presenter only, loopback): the session to show on screen. */
export const AudienceStatusSchema = z.discriminatedUnion("state", [
  z.object({ state: z.literal("off") }),
  z.object({ state: z.literal("ended") }),
  z.object({
    state: z.literal("open"),
    /** What viewers open: `http://<audience host>:<port>/j/<join code>/`. */
    joinUrl: z.string(),
    code: z.string(),
    viewers: z.number().int().nonnegative(),
    /** Requests refused for a wrong join code, addresses refused everything for guessing, the last one's time. */
    wrongCodes: z.object({
      refused: z.number().int().nonnegative(),
      blocked: z.number().int().nonnegative(),
      lastAt: z.number().nullable(),
    }),
  }),
]);
export type AudienceStatus = z.infer<typeof AudienceStatusSchema>;

/** The viewer page's path prefix: `/j/<code>/`. */
export function audiencePrefix(code: string): string {
  return `/j/${code}/`;
}
