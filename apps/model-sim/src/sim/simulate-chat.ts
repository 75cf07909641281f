/**
 * One `/api/chat` request, as Ollama's ChatHandler runs it (server/routes.go, v0.13.5): checks, load,
 * render, then the runner's tokens through the tool-call parser with the same glue — chunks the parser
 * is buffering are not sent, a completed call goes out alone with `content: ""`, the final chunk carries
 * the metrics. The only simulated part is *what* is generated: decide() instead of a neural network.
 */
import type { ChatRequest, OllamaMessage } from "@hopscope/shared/ollama/schemas";
import { atLeast } from "@hopscope/shared/prompt/version";
import { DEBUG_RENDER_SINCE } from "@hopscope/shared/dialects/debug-render";
import { glueChunk } from "@hopscope/shared/toolcall/chat-glue";
import { OllamaError } from "./ollama-error";
import { checkThink } from "./check-think";
import { keepAliveMs } from "./keep-alive";
import { goNow, nowNs } from "./go-time";
import type { ResolvedModel } from "./model-name";
import { decide } from "../policy/decide";
import { outputText } from "../policy/format-output";
import { runMetrics, runOutput, type PlannedRun } from "./planned-run";
import { builtinPrompt } from "./builtin-renderer";
import { fitPrompt } from "./truncate-prompt";
import { requestNumCtx } from "./context-length";
import { cutForRunner, seenAfterCut, type RunnerInput } from "./runner-cut";
import type { SimDeps } from "./sim-deps";
import { chatChunk, toolCallObject } from "./wire-shapes";
import { cutForLesson } from "./cut-stream";

export type ChatOutcome =
  | { kind: "immediate"; body: Record<string, unknown> }
  | { kind: "run"; chunks: AsyncGenerator<Record<string, unknown>> };

export interface ChatCall {
  signal?: AbortSignal | undefined;
  /** Set by the Anthropic endpoint, as middleware/anthropic.go sets gin's `relax_thinking` (see ./check-think.ts). */
  relaxThinking?: boolean | undefined;
}

/** Everything that can still fail with a status code happens here, before the first byte is sent. */
export async function planChat(
  req: ChatRequest,
  rawBody: Record<string, unknown>,
  model: ResolvedModel,
  deps: SimDeps,
  { signal, relaxThinking = false }: ChatCall = {},
): Promise<ChatOutcome> {
  const start = nowNs();
  const { config, state } = deps;
  if (req.top_logprobs !== undefined && (req.top_logprobs < 0 || req.top_logprobs > 20)) {
    throw new OllamaError(400, "top_logprobs must be between 0 and 20");
  }
  const keepMs = keepAliveMs(req.keep_alive);
  if (req.messages.length === 0 && keepMs === 0) {
    state.unload();
    return {
      kind: "immediate",
      body: chatChunk({ model: model.requested, content: "", done: true, doneReason: "unload" }),
    };
  }
  const raw = withoutUnsupportedThink(req, rawBody, model, deps, relaxThinking);

  const slow = model.lesson === "slow";
  await state.ensureLoaded(keepMs, slow ? config.slowLoadMs : config.loadMs, { always: slow, signal });
  const loaded = nowNs();
  if (req.messages.length === 0) {
    return {
      kind: "immediate",
      body: chatChunk({ model: model.requested, content: "", done: true, doneReason: "load" }),
    };
  }

  const evalStart = nowNs();
  const fitted = await fitChat(raw, req, model, deps);
  const promptEvalDurationNs = nowNs() - evalStart;
  // The field came with Ollama 0.11.5; an older release does not know it and runs the model.
  if (req._debug_render_only && atLeast(config.ollamaVersion, DEBUG_RENDER_SINCE)) {
    return { kind: "immediate", body: debugRenderBody(model, fitted.text) };
  }
  const { promptEvalCount, output } = decideOutput(req, raw, model, deps, fitted);
  const chunks = chatChunks({
    req,
    model,
    deps,
    output,
    signal,
    keepMs,
    slow,
    start,
    loaded,
    promptEvalCount,
    promptEvalDurationNs,
  });
  return { kind: "run", chunks: cutForLesson(model.lesson, req.stream !== false, chunks, signal) };
}

/** The body without `think` when the model cannot think and thinking is relaxed; the body as sent otherwise. */
function withoutUnsupportedThink(
  req: ChatRequest,
  rawBody: Record<string, unknown>,
  model: ResolvedModel,
  deps: SimDeps,
  relaxThinking: boolean,
): Record<string, unknown> {
  if (!checkThink(req.think, model.requested, { version: deps.config.ollamaVersion, relaxThinking })) return rawBody;
  // ChatHandler: `slog.Warn("model does not support thinking, relaxing thinking to nil")`, then renders without it.
  deps.logger.warn(
    { model: model.requested, think: req.think },
    "model does not support thinking, relaxing thinking to nil",
  );
  return Object.fromEntries(Object.entries(rawBody).filter(([k]) => k !== "think"));
}

interface FittedChat {
  text: string;
  messages: OllamaMessage[];
  dropped: number;
  /** What the runner is given of the prompt for this context size. */
  cut(numCtx: number): RunnerInput;
}

/**
 * Render and truncate to num_ctx, counting tokens as the runner would (the raw body passed the schema
 * above, and it is what Go decodes: zod's defaults would add fields).
 */
async function fitChat(
  raw: Record<string, unknown>,
  req: ChatRequest,
  model: ResolvedModel,
  { config, engine }: SimDeps,
): Promise<FittedChat> {
  if (model.builtinRenderer) {
    const fitted = await builtinPrompt(raw, req.messages, config.ollamaVersion);
    return { ...fitted, cut: () => ({ ...fitted, tailStart: 0 }) };
  }
  const fitted = fitPrompt(raw, req.messages, engine, config.ollamaVersion, config.contextLength);
  return {
    ...fitted,
    cut: (numCtx) => cutForRunner(fitted.text, fitted.tokens, engine.tokenizer, numCtx, raw, config.ollamaVersion),
  };
}

/** api.ChatResponse with a zero Message and DebugInfo (image_count is omitempty). */
function debugRenderBody(model: ResolvedModel, rendered: string): Record<string, unknown> {
  return {
    model: model.requested,
    created_at: goNow(),
    message: { role: "", content: "" },
    done: false,
    _debug_info: { rendered_template: rendered },
  };
}

/** The runner's cut, then what the model says to what it sees of the conversation. */
function decideOutput(
  req: ChatRequest,
  raw: Record<string, unknown>,
  model: ResolvedModel,
  deps: SimDeps,
  fitted: FittedChat,
): { promptEvalCount: number; output: string } {
  const { config } = deps;
  const tools = req.tools ?? [];
  const input = fitted.cut(requestNumCtx(raw.options, config.ollamaVersion, config.contextLength));
  // The model decides from what it sees: the conversation after truncation, and after the runner's cut.
  const seen = seenAfterCut(fitted.text, input.tailStart, fitted.messages, tools);
  const decision = decide({
    messages: seen.messages,
    tools: seen.tools,
    lesson: model.lesson,
    toolsCut: tools.length - seen.tools.length,
  });
  deps.logger.info(
    {
      model: model.requested,
      lesson: model.lesson,
      dropped: fitted.dropped,
      runnerCut: input.tailStart > 0,
      why: decision.why,
    },
    "decided",
  );
  return { promptEvalCount: input.tokenCount, output: outputText(decision, req.format) };
}

interface ChatRun extends PlannedRun {
  req: ChatRequest;
}

/** The runner's tokens as chat chunks, through the tool-call parser when the request has tools. */
async function* chatChunks(run: ChatRun): AsyncGenerator<Record<string, unknown>> {
  const { req, model, deps } = run;
  const { config, engine } = deps;
  const tools = req.tools ?? [];
  const parser = tools.length > 0 ? engine.toolParser(tools, config.ollamaVersion) : null;
  // Tool-call ids (and an always-present index) came with Ollama 0.13.0.
  const withIds = atLeast(config.ollamaVersion, "0.13.0");
  for await (const r of runOutput(run, req.options)) {
    const metrics = r.done ? runMetrics(run, r) : undefined;
    const base = { model: model.requested, done: r.done, doneReason: r.done ? r.doneReason : undefined, metrics };
    if (!parser) {
      yield chatChunk({ ...base, content: r.content });
      continue;
    }
    const glued = glueChunk(parser, r.content, r.done);
    if (!glued.send) continue;
    const toolCalls = glued.tool_calls?.map((c) => toolCallObject(c, withIds));
    yield chatChunk({ ...base, content: glued.content, toolCalls });
  }
  deps.state.touch(run.keepMs);
}
