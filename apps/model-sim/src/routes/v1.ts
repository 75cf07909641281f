/**
 * The OpenAI- and Anthropic-compatible endpoints, as the imitated Ollama serves them: each request is converted
 * to the native one by the shared conversion layer, run through the same chat (or generate) simulation as
 * `/api/chat`, and the native chunks are written back in the dialect. An endpoint newer than SIM_OLLAMA_VERSION
 * answers gin's 404, as that release would.
 */
import { Hono, type Context } from "hono";
import { z } from "zod";
import { type DialectWriter, dialectWriter, toNative } from "@hopscope/shared/dialects/convert";
import { type Dialect, servesPath } from "@hopscope/shared/dialects/dialect";
import { DialectError } from "@hopscope/shared/dialects/dialect-error";
import { parseJsonText } from "@hopscope/shared/dialects/go-decode";
import { ChatRequestSchema, GenerateRequestSchema, LESSON_HEADER } from "@hopscope/shared/ollama/schemas";
import { QWEN25_MODEL, QWEN25_MODIFIED_AT } from "@hopscope/shared/ollama/qwen25-facts";
import { dialectErrorResponse, encodedJson, sseResponse } from "../sim/dialect-respond";
import { resolveModel } from "../sim/model-name";
import { OllamaError, modelNotFound } from "../sim/ollama-error";
import { parseOllamaBody } from "../sim/read-body";
import { aggregateChat, aggregateGenerate } from "../sim/respond";
import { planChat } from "../sim/simulate-chat";
import { planGenerate } from "../sim/simulate-generate";
import type { SimDeps } from "../sim/sim-deps";

type Generating = Exclude<Dialect, "ollama" | "ollama-generate">;

const ChatBody = ChatRequestSchema.extend({ model: z.string().default("") });
const GenerateBody = GenerateRequestSchema.extend({ model: z.string().default("") });

/** gin's ShouldBindJSON: an empty body is `EOF`, bad JSON Go's syntax message. */
function bindJson(text: string): unknown {
  if (text.trim() === "") throw new DialectError(400, "EOF");
  const parsed = parseJsonText(text);
  if (!parsed.ok) throw new DialectError(400, parsed.error);
  return parsed.value;
}

async function run(d: Generating, c: Context, deps: SimDeps): Promise<Response> {
  const body = bindJson(await c.req.text());
  const converted = toNative(d, body, { ollamaVersion: deps.config.ollamaVersion });
  const signal = c.req.raw.signal;
  const writer = dialectWriter(d, body as Record<string, unknown>);
  const sseHeaders: Record<string, string> =
    d === "anthropic" || d === "openai-responses" ? { "cache-control": "no-cache" } : {};
  const lessonHeader = c.req.header(LESSON_HEADER);
  let res: Response;
  if (converted.endpoint === "/api/chat") {
    const { value: req, raw } = parseOllamaBody(JSON.stringify(converted.native), ChatBody, "ChatRequest");
    if (req.model === "") throw new OllamaError(400, "model is required");
    const model = resolveModel(req.model, lessonHeader);
    const outcome = await planChat(req, raw, model, deps, { signal, relaxThinking: d === "anthropic" });
    if (outcome.kind === "immediate") res = await immediate(outcome.body, converted.stream, writer, deps, sseHeaders);
    else if (converted.stream) res = await sseResponse(outcome.chunks, writer, deps.logger, sseHeaders);
    else res = encodedJson(writer.whole(await aggregateChat(outcome.chunks)));
    if (model.lesson) res.headers.set(LESSON_HEADER, model.lesson);
    return res;
  }
  const { value: req, raw } = parseOllamaBody(JSON.stringify(converted.native), GenerateBody, "GenerateRequest");
  if (req.model === "") throw modelNotFound("");
  const model = resolveModel(req.model, lessonHeader);
  const outcome = await planGenerate(req, raw, model, deps, signal);
  if (outcome.kind === "immediate") res = await immediate(outcome.body, converted.stream, writer, deps);
  else if (converted.stream) res = await sseResponse(outcome.chunks, writer, deps.logger);
  else res = encodedJson(writer.whole(await aggregateGenerate(outcome.chunks)));
  if (model.lesson) res.headers.set(LESSON_HEADER, model.lesson);
  return res;
}

/**
 * The handler's one answer (a load, an unload, a `_debug_render_only` render) through the dialect's writer, as
 * Ollama's middleware writes whatever the handler sends: a streaming request gets it as its stream's events
 * (a render's `_debug_info` is lost there, and a response that is not done has no `[DONE]`).
 */
async function immediate(
  body: Record<string, unknown>,
  stream: boolean,
  writer: DialectWriter,
  deps: SimDeps,
  headers: Record<string, string> = {},
): Promise<Response> {
  if (!stream) return encodedJson(writer.whole(body));
  async function* once(): AsyncGenerator<Record<string, unknown>> {
    yield body;
  }
  return sseResponse(once(), writer, deps.logger, headers);
}

/** openai.Model for the one pulled model: owned_by is the name's namespace ("library"). */
function modelObject(id: string): Record<string, unknown> {
  return {
    id,
    object: "model",
    created: Math.floor(Date.parse(QWEN25_MODIFIED_AT.replace(/(\.\d{3})\d+/, "$1")) / 1000),
    owned_by: "library",
  };
}

const ROUTES: Array<[string, Generating]> = [
  ["/chat/completions", "openai-chat"],
  ["/completions", "openai-completions"],
  ["/responses", "openai-responses"],
  ["/messages", "anthropic"],
];

export function v1Routes(deps: SimDeps): Hono {
  const app = new Hono();
  const version = deps.config.ollamaVersion;
  app.use("*", async (c, next) => {
    // A release without the endpoint has no route for it: gin's plain 404.
    if (!servesPath(c.req.path, version)) return c.text("404 page not found", 404);
    await next();
  });
  for (const [path, d] of ROUTES) {
    app.post(path, async (c) => {
      try {
        return await run(d, c, deps);
      } catch (err) {
        const res = dialectErrorResponse(d, err);
        if (res) return res;
        throw err;
      }
    });
  }
  app.get("/models", () => encodedJson({ object: "list", data: [modelObject(QWEN25_MODEL)] }));
  app.get("/models/:model{.+}", (c) => {
    const name = c.req.param("model");
    try {
      resolveModel(name, undefined);
      return encodedJson(modelObject(name));
    } catch (err) {
      const res = dialectErrorResponse("openai-chat", err);
      if (res) return res;
      throw err;
    }
  });
  return app;
}
