/**
 * One `/api/generate` request, as Ollama's GenerateHandler (v0.13.5) runs it. Not raw: the prompt is
 * rendered as a one-turn chat (the model's SYSTEM unless `system` is given) and answered like
 * /api/chat without tools; the final chunk carries `context`. Raw: the prompt goes to the "runner"
 * as-is; a rendered qwen2.5 chat prompt is read back and continued with the same decision /api/chat
 * would make, so the two agree as on a real server. Other raw text ends at once (a stand-in cannot
 * continue arbitrary text).
 */
import type { GenerateRequest } from "@hopscope/shared/ollama/schemas";
import type { GenerateRequestLike } from "@hopscope/shared/prompt/render";
import { atLeast } from "@hopscope/shared/prompt/version";
import { DEBUG_RENDER_SINCE } from "@hopscope/shared/dialects/debug-render";
import { readChatPrompt, type ChatPrompt } from "./chatml-reader";
import { goNow, nowNs } from "./go-time";
import { keepAliveMs } from "./keep-alive";
import type { ResolvedModel } from "./model-name";
import { OllamaError } from "./ollama-error";
import { decide } from "../policy/decide";
import { outputText } from "../policy/format-output";
import { runMetrics, runOutput, type PlannedRun } from "./planned-run";
import { checkThink } from "./check-think";
import type { SimDeps } from "./sim-deps";
import { generateChunk } from "./wire-shapes";

export type GenerateOutcome =
  | { kind: "immediate"; body: Record<string, unknown> }
  | { kind: "run"; chunks: AsyncGenerator<Record<string, unknown>> };

export async function planGenerate(
  req: GenerateRequest,
  raw: Record<string, unknown>,
  model: ResolvedModel,
  deps: SimDeps,
  signal?: AbortSignal,
): Promise<GenerateOutcome> {
  const start = nowNs();
  const { config, state, engine } = deps;
  const prompt = req.prompt ?? "";
  const keepMs = keepAliveMs(req.keep_alive);
  if (prompt === "" && keepMs === 0) {
    state.unload();
    return {
      kind: "immediate",
      body: generateChunk({ model: model.requested, response: "", done: true, doneReason: "unload" }),
    };
  }
  if (req.raw && (req.template || req.system || (req.context && req.context.length > 0))) {
    throw new OllamaError(400, "raw mode does not support template, system, or context");
  }
  if (req.suffix) throw new OllamaError(400, `${JSON.stringify(model.requested)} does not support insert`);
  checkThink(req.think, model.requested, { version: deps.config.ollamaVersion, relaxThinking: false });

  const slow = model.lesson === "slow";
  await state.ensureLoaded(keepMs, slow ? config.slowLoadMs : config.loadMs, { always: slow, signal });
  const loaded = nowNs();
  if (prompt === "")
    return {
      kind: "immediate",
      body: generateChunk({ model: model.requested, response: "", done: true, doneReason: "load" }),
    };

  const chat = req.raw ? readChatPrompt(prompt) : oneTurnChat(req, prompt, engine.system);
  // The raw body passed the schema; Ollama renders what Go decoded, without zod's defaults.
  const rendered = engine.renderGenerate(raw as GenerateRequestLike, config.ollamaVersion);
  // The field came with Ollama 0.11.5; an older release does not know it and runs the model.
  if (req._debug_render_only && atLeast(config.ollamaVersion, DEBUG_RENDER_SINCE)) {
    return {
      kind: "immediate",
      body: {
        model: model.requested,
        created_at: goNow(),
        response: "",
        done: false,
        _debug_info: { rendered_template: rendered },
      },
    };
  }

  const evalStart = nowNs();
  const promptEvalCount = engine.tokenizer.encode(rendered).length;
  const promptEvalDurationNs = nowNs() - evalStart;
  const decision = chat
    ? decide({ messages: chat.messages, tools: chat.tools, lesson: model.lesson })
    : { content: "", toolCalls: [], why: "raw text that is not a chat prompt: ends at once" };
  deps.logger.info({ model: model.requested, lesson: model.lesson, why: decision.why }, "decided");
  const output = outputText(decision, req.format);
  const run = { req, model, deps, output, rendered, signal, keepMs, slow, start, loaded };
  return { kind: "run", chunks: generateChunks({ ...run, promptEvalCount, promptEvalDurationNs }) };
}

/** Not raw: the prompt as a one-turn chat, under the request's system text or the model's SYSTEM. */
function oneTurnChat(req: GenerateRequest, prompt: string, modelSystem: string): ChatPrompt {
  return {
    messages: [
      { role: "system", content: req.system || modelSystem },
      { role: "user", content: prompt },
    ],
    tools: [],
  };
}

interface GenerateRun extends PlannedRun {
  req: GenerateRequest;
  rendered: string;
}

/** The runner's tokens as generate chunks; the last one carries the metrics (and `context` when not raw). */
async function* generateChunks(run: GenerateRun): AsyncGenerator<Record<string, unknown>> {
  const { req, model, deps, rendered } = run;
  const { engine } = deps;
  const tokens = runOutput(run, req.options);
  let generated = "";
  for await (const r of tokens) {
    generated += r.content;
    if (!r.done) {
      yield generateChunk({ model: model.requested, response: r.content, done: false });
      continue;
    }
    yield generateChunk({
      model: model.requested,
      response: "",
      done: true,
      doneReason: r.doneReason,
      // Not raw: the conversation so far as token ids (deprecated in Ollama, still sent).
      context: req.raw ? undefined : engine.tokenizer.encode(rendered + generated),
      metrics: runMetrics(run, r),
    });
  }
  deps.state.touch(run.keepMs);
}
