/**
 * Which endpoints of Ollama carry `"_debug_render_only": true` through to the render, from Ollama's own code:
 * - `/api/chat`, `/api/generate` (api.ChatRequest/GenerateRequest.DebugRenderOnly, since 0.11.5, commit 8de1da4):
 *   the handler answers `_debug_info.rendered_template` instead of running the model;
 * - `/v1/chat/completions` (openai.ChatCompletionRequest.DebugRenderOnly, since 0.12.0, commit 4799194, "to make
 *   it easier to diff ... via the openai compat layer"): the flag goes on the native request, and the answer is a
 *   `chat.completion` whose `_debug_info` is the handler's (ChatCompletion.DebugInfo). Only when not streaming:
 *   the stream writer (toChunk) drops it;
 * - `/v1/completions` carries the flag to the handler from 0.12.0, so the model does not run, but
 *   openai.Completion has no `_debug_info`: the answer is an empty `text_completion`, with no render in it;
 * - `/v1/responses` (openai.ResponsesRequest) and `/v1/messages` (anthropic.MessagesRequest) have no such field:
 *   Go drops it and the model runs as usual.
 * So a dialect request is checked at its own endpoint (Ollama's conversion and render together) where that
 * answers the render, and elsewhere as the native request hopscope derived (the render only).
 */
import { atLeast } from "../prompt/version";
import { DIALECT_PATHS, type Dialect } from "./dialect";

/** First release whose native handlers render on `_debug_render_only`. */
export const DEBUG_RENDER_SINCE = "0.11.5";
/** First release whose OpenAI layer passes `_debug_render_only` on (and /v1/chat/completions answers the render). */
export const OPENAI_DEBUG_RENDER_SINCE = "0.12.0";

export interface DebugRenderRoute {
  /** The endpoint to ask for the server's own render. */
  endpoint: "/api/chat" | "/api/generate" | "/v1/chat/completions";
  /** "client": the client's own request (checks the conversion too); "native": the native request hopscope derived. */
  sent: "client" | "native";
  /** For "native" in a converted dialect: why the dialect's own endpoint cannot be asked. */
  note?: string;
}

/** Whether an Ollama of `version` honours `_debug_render_only` on a dialect's own endpoint. */
export function carriesDebugRender(d: Dialect, version: string): boolean {
  if (d === "ollama" || d === "ollama-generate") return atLeast(version, DEBUG_RENDER_SINCE);
  if (d === "openai-chat" || d === "openai-completions") return atLeast(version, OPENAI_DEBUG_RENDER_SINCE);
  return false;
}

/** Where to ask an Ollama of `version` for its render of a request in dialect `d`. */
export function debugRenderRoute(d: Dialect, version: string): DebugRenderRoute {
  if (d === "ollama") return { endpoint: "/api/chat", sent: "client" };
  if (d === "ollama-generate") return { endpoint: "/api/generate", sent: "client" };
  const path = DIALECT_PATHS[d];
  if (d === "openai-chat" && carriesDebugRender(d, version))
    return { endpoint: "/v1/chat/completions", sent: "client" };
  const native = d === "openai-completions" ? "/api/generate" : "/api/chat";
  const why =
    d === "openai-completions" && carriesDebugRender(d, version)
      ? `Ollama's ${path} passes "_debug_render_only" on, but its answer (a text_completion) has no _debug_info`
      : d === "openai-chat" || d === "openai-completions"
        ? `Ollama ${version}'s ${path} drops "_debug_render_only" (its OpenAI layer carries it from ${OPENAI_DEBUG_RENDER_SINCE})`
        : `Ollama's ${path} drops "_debug_render_only" (the request type of its ${d === "anthropic" ? "Anthropic" : "Responses"} layer has no such field, so the model would run)`;
  return {
    endpoint: native,
    sent: "native",
    note: `${why}; so the native ${native} request hopscope derived is checked instead: the render, not the conversion.`,
  };
}
