/** `POST /api/chat`: Ollama's ChatHandler, simulated (see ../simulate-chat.ts). */
import { Hono } from "hono";
import { z } from "zod";
import { ChatRequestSchema, LESSON_HEADER } from "@hopscope/shared/ollama/schemas";
import { OllamaError } from "../sim/ollama-error";
import { resolveModel } from "../sim/model-name";
import { parseOllamaBody } from "../sim/read-body";
import { aggregateChat, goJsonResponse, ndjsonResponse } from "../sim/respond";
import { planChat } from "../sim/simulate-chat";
import type { SimDeps } from "../sim/sim-deps";

// The model is checked by the handler, with Ollama's own message, not by the schema.
const BodySchema = ChatRequestSchema.extend({ model: z.string().default("") });

export function chatRoutes(deps: SimDeps): Hono {
  return new Hono().post("/", async (c) => {
    const { value: req, raw } = parseOllamaBody(await c.req.text(), BodySchema, "ChatRequest");
    if (req.model === "") throw new OllamaError(400, "model is required");
    const model = resolveModel(req.model, c.req.header(LESSON_HEADER), deps.config.builtinRendererModel);
    const signal = c.req.raw.signal;
    const outcome = await planChat(req, raw, model, deps, { signal });
    let res: Response;
    if (outcome.kind === "immediate") res = goJsonResponse(outcome.body);
    else if (req.stream === false) res = goJsonResponse(await aggregateChat(outcome.chunks));
    else res = await ndjsonResponse(outcome.chunks, deps.logger);
    // Say which lesson applied (it may have come from the model name), for recorders and the UI.
    if (model.lesson) res.headers.set(LESSON_HEADER, model.lesson);
    return res;
  });
}
