/**
 * `POST /v1/completions` → the native generate request (openai.FromCompleteRequest): the prompt passes as is,
 * `stop` must be strings ("invalid type for 'stop' field"), frequency/presence penalties are always sent,
 * temperature and top_p default to 1.0 (a top_p of 0 counts as unset).
 */
import { type Json, bodyObject, optBool, optNumber, optString } from "./go-decode";
import type { Converted } from "./native";
import { PathMap } from "./path-map";
import { stopOption } from "./from-openai-chat";
import { OPENAI_DEBUG_RENDER_SINCE } from "./debug-render";
import { atLeast } from "../prompt/version";

const STRUCT = "CompletionRequest";

/** @param ollamaVersion the release whose conversion to reproduce (default: the newest behaviour) */
export function fromOpenAiCompletions(body: unknown, ollamaVersion?: string): Converted {
  const r = bodyObject(body, `openai.${STRUCT}`);
  const f = (k: string) => `${STRUCT}.${k}`;
  const options: Json = {};
  const stop = stopOption(r.stop, true);
  if (stop) options.stop = stop;
  const maxTokens = optNumber(r.max_tokens, f("max_tokens"), "int");
  if (maxTokens !== undefined) options.num_predict = maxTokens;
  options.temperature = optNumber(r.temperature, f("temperature"), "float32") ?? 1.0;
  const seed = optNumber(r.seed, f("seed"), "int");
  if (seed !== undefined) options.seed = seed;
  options.frequency_penalty = optNumber(r.frequency_penalty, f("frequency_penalty"), "float32") ?? 0;
  options.presence_penalty = optNumber(r.presence_penalty, f("presence_penalty"), "float32") ?? 0;
  const topP = optNumber(r.top_p, f("top_p"), "float32") ?? 0;
  options.top_p = topP !== 0 ? topP : 1.0;
  const stream = optBool(r.stream, f("stream")) ?? false;
  const logprobs = optNumber(r.logprobs, f("logprobs"), "int");

  // api.GenerateRequest field order; prompt, suffix, system and template are not omitempty.
  const native: Json = {
    model: optString(r.model, f("model")) ?? "",
    prompt: optString(r.prompt, f("prompt")) ?? "",
    suffix: optString(r.suffix, f("suffix")) ?? "",
    system: "",
    template: "",
    stream,
    options,
  };
  if (logprobs !== undefined && logprobs > 0) Object.assign(native, { logprobs: true, top_logprobs: logprobs });
  // CompletionRequest has carried `_debug_render_only` since 0.12.0 (debug-render.ts); before, Go dropped it.
  if (
    r._debug_render_only === true &&
    (ollamaVersion === undefined || atLeast(ollamaVersion, OPENAI_DEBUG_RENDER_SINCE))
  )
    native._debug_render_only = true;
  const paths = new PathMap().add("/model", "/model").add("/prompt", "/prompt").add("/suffix", "/suffix");
  if (r.stop !== undefined) paths.add("/options/stop", "/stop");
  if (r.max_tokens !== undefined) paths.add("/options/num_predict", "/max_tokens");
  return { endpoint: "/api/generate", native, paths, stream };
}
