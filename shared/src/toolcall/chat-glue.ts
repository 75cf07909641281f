/**
 * What Ollama's ChatHandler does with each runner chunk when the request has tools (server/routes.go,
 * identical in v0.13.5 and HEAD for models without a built-in parser, such as qwen2.5). It decides which
 * NDJSON chunks a client sees, so the stand-in model runs its text through this to stream like Ollama:
 *
 * - content from the parser wins: a chunk with both prose and a completed call sends the prose and loses
 *   the call (rare, since the runner sends about one token per chunk);
 * - completed calls get ids and go out in their own chunk with `content: ""`;
 * - a chunk the parser swallowed entirely is not sent, except the final one, which carries `content()`.
 */
import type { ParsedToolCall, ToolCallParser } from "./parser";
import { toolCallId, type RandomSource } from "./tool-call-id";

/** A parsed call with the id Ollama assigns (v0.13+). */
export interface IdentifiedToolCall extends ParsedToolCall {
  id: string;
}

/** The chunk's fate: not sent, or sent with this content (and these calls). */
export type GluedChunk = { send: false } | { send: true; content: string; tool_calls?: IdentifiedToolCall[] };

/**
 * One runner chunk through the parser and the handler's branches.
 *
 * @param text the chunk's text as the runner produced it
 * @param done whether this is the runner's final chunk (`done: true`, normally with empty text)
 * @param random the source for `toolCallId()`; Math.random by default
 */
export function glueChunk(parser: ToolCallParser, text: string, done: boolean, random?: RandomSource): GluedChunk {
  const { calls, content } = parser.add(text);
  if (content.length > 0) return { send: true, content };
  if (calls.length > 0) {
    return { send: true, content: "", tool_calls: calls.map((call) => ({ id: toolCallId(random), ...call })) };
  }
  if (done) return { send: true, content: parser.content() };
  return { send: false };
}
