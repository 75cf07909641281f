/** `POST /api/generate`: Ollama's GenerateHandler, simulated (see ../simulate-generate.ts). */
import { Hono } from "hono";
import { z } from "zod";
import { GenerateRequestSchema, LESSON_HEADER } from "@hopscope/shared/ollama/schemas";
import { modelNotFound } from "../sim/ollama-error";
import { resolveModel } from "../sim/model-name";
import { parseOllamaBody } from "../sim/read-body";
import { aggregateGenerate, goJsonResponse, ndjsonResponse } from "../sim/respond";
import { planGenerate } from "../sim/simulate-generate";
import type { SimDeps } from "../sim/sim-deps";

const BodySchema = GenerateRequestSchema.extend({ model: z.string().default("") });

export function generateRoutes(deps: SimDeps): Hono {
  return new Hono().post("/", async (c) => {
    const { value: req, raw } = parseOllamaBody(await c.req.text(), BodySchema, "GenerateRequest");
    // GenerateHandler answers an invalid (e.g. empty) name with the not-found 404, unlike ChatHandler.
    if (req.model === "") throw modelNotFound("");
    const model = resolveModel(req.model, c.req.header(LESSON_HEADER));
    const outcome = await planGenerate(req, raw, model, deps, c.req.raw.signal);
    let res: Response;
    if (outcome.kind === "immediate") res = goJsonResponse(outcome.body);
    else if (req.stream === false) res = goJsonResponse(await aggregateGenerate(outcome.chunks));
    else res = await ndjsonResponse(outcome.chunks, deps.logger);
    // Say which lesson applied (it may have come from the model name), for recorders and the UI.
    if (model.lesson) res.headers.set(LESSON_HEADER, model.lesson);
    return res;
  });
}
