/**
 * The native chat response → `/v1/chat/completions` (openai.ToChatCompletion, middleware.ChatWriter):
 * arguments become a JSON string, `finish_reason` "stop" becomes "tool_calls" when the turn called a tool,
 * `usage` counts from prompt_eval_count/eval_count. Streaming: a role on the first chunk only, no chunk for the
 * empty metrics trailer, a finish chunk with an empty delta, a usage chunk when `stream_options.include_usage`,
 * then `data: [DONE]`.
 */
import { type NativeCall, type NativeChunk, argumentsText, sseEvent, unixSeconds } from "./native-response";
import type { Json } from "./go-decode";
import { type RandomSource, toolCallId } from "../toolcall/tool-call-id";

/**
 * openai.ToToolCalls. Before Ollama 0.13 the native answer had no call ids and the middleware made one per call
 * (its own toolCallId(): "call_" + 8 of [a-z0-9]); since then it passes the handler's id through.
 */
export function openAiToolCalls(calls: NativeCall[], random: RandomSource = Math.random): Json[] {
  return calls.map((tc) => ({
    id: tc.id ?? toolCallId(random),
    index: tc.index,
    type: "function",
    function: { name: tc.name, arguments: argumentsText(tc.arguments) },
  }));
}

export function openAiUsage(r: NativeChunk): Json {
  return {
    prompt_tokens: r.promptEvalCount,
    completion_tokens: r.evalCount,
    total_tokens: r.promptEvalCount + r.evalCount,
  };
}

export function toChatCompletion(id: string, r: NativeChunk, random: RandomSource = Math.random): Json {
  const toolCalls = openAiToolCalls(r.toolCalls, random);
  const message: Json = { role: r.role, content: r.content };
  if (r.thinking) message.reasoning = r.thinking;
  if (toolCalls.length > 0) message.tool_calls = toolCalls;
  let reason: string | null = r.doneReason === "stop" && toolCalls.length > 0 ? "tool_calls" : r.doneReason;
  if (reason === "") reason = null;
  return {
    id,
    object: "chat.completion",
    created: unixSeconds(r.createdAt),
    model: r.model,
    system_fingerprint: "fp_ollama",
    choices: [{ index: 0, message, finish_reason: reason }],
    usage: openAiUsage(r),
    // A `_debug_render_only` request gets the rendered prompt back, as on /api/chat.
    ...(r.debugInfo ? { _debug_info: r.debugInfo } : {}),
  };
}

/** Writes one stream: feed it each native chunk, in order; it returns the SSE text to send for it. */
export class OpenAiChatStream {
  private firstSent = false;
  private toolCallSent = false;
  private created: number | null = null;

  constructor(
    private readonly id: string,
    private readonly includeUsage: boolean,
    private readonly random: RandomSource = Math.random,
  ) {}

  private chunk(r: NativeChunk, delta: Json, finish: string | null): Json {
    return {
      id: this.id,
      object: "chat.completion.chunk",
      created: this.created,
      model: r.model,
      system_fingerprint: "fp_ollama",
      choices: [{ index: 0, delta, finish_reason: finish }],
    };
  }

  write(r: NativeChunk): string {
    this.created ??= unixSeconds(r.createdAt);
    let out = "";
    const emptyTrailer = r.done && this.firstSent && r.content === "" && r.thinking === "" && r.toolCalls.length === 0;
    if (!emptyTrailer) {
      const role = this.firstSent ? {} : { role: "assistant" };
      const calls = openAiToolCalls(r.toolCalls, this.random);
      const mixed = r.thinking !== "" && (r.content !== "" || calls.length > 0);
      if (mixed) {
        out += sseEvent(this.chunk(r, { ...role, reasoning: r.thinking }, null));
        out += sseEvent(
          this.chunk(r, { content: r.content, ...(calls.length > 0 ? { tool_calls: calls } : {}) }, null),
        );
      } else {
        const delta: Json = { ...role, content: r.content };
        if (r.thinking) delta.reasoning = r.thinking;
        if (calls.length > 0) delta.tool_calls = calls;
        out += sseEvent(this.chunk(r, delta, null));
      }
      if (calls.length > 0) this.toolCallSent = true;
      this.firstSent = true;
    }
    if (r.done) {
      let reason = r.doneReason || "stop";
      if (reason === "stop" && this.toolCallSent) reason = "tool_calls";
      const finish = this.chunk(r, {}, reason);
      out += sseEvent(finish);
      if (this.includeUsage) out += sseEvent({ ...finish, choices: [], usage: openAiUsage(r) });
      out += sseEvent("[DONE]");
    }
    return out;
  }
}
