/**
 * One entry point: a dialect request body → the native request Ollama builds from it (with the path map),
 * and the writer that turns the native response back into the dialect's bytes. The stand-in answers with it;
 * the recorder reconstructs what the model saw with it.
 */
import { type Dialect } from "./dialect";
import { type Json, bodyObject } from "./go-decode";
import { fromAnthropic, estimateInputTokens } from "./from-anthropic";
import { fromOpenAiChat } from "./from-openai-chat";
import { fromOpenAiCompletions } from "./from-openai-completions";
import { fromOpenAiResponses } from "./from-openai-responses";
import type { Converted } from "./native";
import { readNativeChunk, type NativeChunk } from "./native-response";
import { identityPaths } from "./path-map";
import { AnthropicStream, toMessagesResponse } from "./to-anthropic";
import { OpenAiChatStream, toChatCompletion } from "./to-openai-chat";
import { OpenAiCompletionsStream, toCompletion } from "./to-openai-completions";
import { ResponsesStream, toResponse } from "./to-openai-responses";
import { hexId } from "./dialect-error";

/**
 * Throws DialectError(400, Ollama's message) for a body Ollama would refuse. `ollamaVersion`: the release whose
 * conversion to reproduce where it changed (default: the newest).
 */
export function toNative(d: Dialect, body: unknown, opts: { ollamaVersion?: string } = {}): Converted {
  switch (d) {
    case "openai-chat":
      return fromOpenAiChat(body, opts.ollamaVersion);
    case "openai-completions":
      return fromOpenAiCompletions(body, opts.ollamaVersion);
    case "openai-responses":
      return fromOpenAiResponses(body, opts.ollamaVersion);
    case "anthropic":
      return fromAnthropic(body, opts.ollamaVersion);
    case "ollama":
    case "ollama-generate": {
      const native = bodyObject(body, d === "ollama" ? "api.ChatRequest" : "api.GenerateRequest");
      return {
        endpoint: d === "ollama" ? "/api/chat" : "/api/generate",
        native,
        paths: identityPaths(),
        stream: native.stream !== false,
      };
    }
  }
}

export interface DialectWriter {
  /** The SSE text for one native chunk of a stream. */
  chunk(native: Json): string;
  /** The whole (non-streaming) body for the aggregated native response. */
  whole(native: Json): Json;
}

export interface WriterIds {
  random: () => number;
  hex: (bytes: number) => string;
  now: () => number;
}

const defaultIds: WriterIds = { random: Math.random, hex: hexId, now: () => Date.now() };

/** The writer for one response to `body` in dialect `d` (its ids are made as Ollama makes them). */
export function dialectWriter(
  d: Exclude<Dialect, "ollama" | "ollama-generate">,
  body: Json,
  ids: WriterIds = defaultIds,
): DialectWriter {
  const n = (x: Json): NativeChunk => readNativeChunk(x);
  const usage =
    typeof body.stream_options === "object" &&
    body.stream_options !== null &&
    (body.stream_options as Json).include_usage === true;
  const rand = (max: number) => Math.floor(ids.random() * max);
  switch (d) {
    case "openai-chat": {
      const id = `chatcmpl-${rand(999)}`;
      const s = new OpenAiChatStream(id, usage, ids.random);
      return { chunk: (x) => s.write(n(x)), whole: (x) => toChatCompletion(id, n(x), ids.random) };
    }
    case "openai-completions": {
      const id = `cmpl-${rand(999)}`;
      const s = new OpenAiCompletionsStream(id, usage, ids.now);
      return { chunk: (x) => s.write(n(x)), whole: (x) => toCompletion(id, n(x)) };
    }
    case "openai-responses": {
      const rid = { responseId: `resp_${rand(999999)}`, itemId: `msg_${rand(999999)}`, random: ids.random };
      const s = new ResponsesStream(body, rid, ids.now);
      return { chunk: (x) => s.write(n(x)), whole: (x) => toResponse(body, rid, n(x), Math.floor(ids.now() / 1000)) };
    }
    case "anthropic": {
      const id = `msg_${ids.hex(12)}`;
      const s = new AnthropicStream(id, typeof body.model === "string" ? body.model : "", estimateInputTokens(body));
      return { chunk: (x) => s.write(n(x)), whole: (x) => toMessagesResponse(id, n(x)) };
    }
  }
}
