/**
 * How the stand-in model (apps/model-sim) says it is simulated, besides the `x-hopscope-simulated`
 * response header (SIMULATED_HEADER in ./schemas): an extra `hopscope` field on `/api/version` and
 * `/api/show`. A real Ollama never sends it, so its presence is proof of a simulation and its absence
 * means nothing more than "not the stand-in".
 */
import { z } from "zod";

/** Name of the extra field on `/api/version` and `/api/show` bodies. */
export const SIMULATED_FIELD = "hopscope";

export const SimulatedInfoSchema = z.object({
  simulated: z.literal(true),
  /** Which program answered, e.g. "hopscope model-sim". */
  simulator: z.string(),
  /** One sentence for learners: what the stand-in does instead of running a model. */
  note: z.string(),
});
export type SimulatedInfo = z.infer<typeof SimulatedInfoSchema>;

/** The body of `/api/version` from the stand-in: Ollama's `{version}` plus the simulated field. */
export const SimulatedVersionResponseSchema = z.looseObject({
  version: z.string(),
  [SIMULATED_FIELD]: SimulatedInfoSchema,
});
