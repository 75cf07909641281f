/**
 * The native chat response → `/v1/messages` (anthropic.ToMessagesResponse, StreamConverter): content blocks
 * thinking, text, then one `tool_use` per call with `input` the arguments object; stop_reason `tool_use` when a
 * tool was called, else end_turn / max_tokens / stop_sequence. Streaming: message_start, then content_block_start /
 * _delta / _stop per block (a tool call's arguments in one input_json_delta), message_delta with the usage, message_stop.
 */
import { type NativeCall, type NativeChunk, argumentsText, sseEvent } from "./native-response";
import type { Json } from "./go-decode";

export function stopReason(reason: string, hasToolCalls: boolean): string {
  if (hasToolCalls) return "tool_use";
  if (reason === "stop") return "end_turn";
  if (reason === "length") return "max_tokens";
  return reason !== "" ? "stop_sequence" : "";
}

export function toMessagesResponse(id: string, r: NativeChunk): Json {
  const content: Json[] = [];
  if (r.thinking) content.push({ type: "thinking", thinking: r.thinking });
  if (r.content) content.push({ type: "text", text: r.content });
  for (const tc of r.toolCalls) content.push({ type: "tool_use", id: tc.id ?? "", name: tc.name, input: tc.arguments });
  const out: Json = { id, type: "message", role: "assistant", model: r.model, content };
  const reason = stopReason(r.doneReason, r.toolCalls.length > 0);
  if (reason) out.stop_reason = reason;
  out.usage = { input_tokens: r.promptEvalCount, output_tokens: r.evalCount };
  return out;
}

export class AnthropicStream {
  private first = true;
  private index = 0;
  private thinkingStarted = false;
  private thinkingDone = false;
  private textStarted = false;
  private readonly sent = new Set<string>();

  constructor(
    private readonly id: string,
    private readonly model: string,
    private readonly estimatedInputTokens: number,
  ) {}

  private ev(type: string, data: Json): string {
    return sseEvent({ type, ...data }, type);
  }

  private stop(): string {
    return this.ev("content_block_stop", { index: this.index });
  }

  write(r: NativeChunk): string {
    let out = "";
    if (this.first) out += this.messageStart(r);
    if (r.thinking && !this.thinkingDone) out += this.thinkingDelta(r.thinking);
    if (r.content) out += this.textDelta(r.content);
    for (const tc of r.toolCalls) if (!this.sent.has(tc.id ?? "")) out += this.toolUse(tc);
    if (r.done) out += this.messageEnd(r);
    return out;
  }

  private messageStart(r: NativeChunk): string {
    this.first = false;
    const input = r.promptEvalCount || this.estimatedInputTokens;
    return this.ev("message_start", {
      message: {
        id: this.id,
        type: "message",
        role: "assistant",
        model: this.model,
        content: [],
        usage: { input_tokens: input, output_tokens: 0 },
      },
    });
  }

  private thinkingDelta(thinking: string): string {
    let out = "";
    if (this.textStarted) {
      out += this.stop();
      this.index++;
      this.textStarted = false;
    }
    if (!this.thinkingStarted) {
      this.thinkingStarted = true;
      out += this.ev("content_block_start", { index: this.index, content_block: { type: "thinking", thinking: "" } });
    }
    return out + this.ev("content_block_delta", { index: this.index, delta: { type: "thinking_delta", thinking } });
  }

  /** Closes an open thinking block: text or a tool call ends the thinking. */
  private endThinking(): string {
    if (!this.thinkingStarted || this.thinkingDone) return "";
    this.thinkingDone = true;
    const out = this.stop();
    this.index++;
    return out;
  }

  private textDelta(text: string): string {
    let out = this.endThinking();
    if (!this.textStarted) {
      this.textStarted = true;
      out += this.ev("content_block_start", { index: this.index, content_block: { type: "text", text: "" } });
    }
    return out + this.ev("content_block_delta", { index: this.index, delta: { type: "text_delta", text } });
  }

  private toolUse(tc: NativeCall): string {
    const key = tc.id ?? "";
    let out = this.endThinking();
    if (this.textStarted) {
      out += this.stop();
      this.index++;
      this.textStarted = false;
    }
    out += this.ev("content_block_start", {
      index: this.index,
      content_block: { type: "tool_use", id: key, name: tc.name, input: {} },
    });
    out += this.ev("content_block_delta", {
      index: this.index,
      delta: { type: "input_json_delta", partial_json: argumentsText(tc.arguments) },
    });
    out += this.stop();
    this.sent.add(key);
    this.index++;
    return out;
  }

  private messageEnd(r: NativeChunk): string {
    let out = "";
    if (this.textStarted || (this.thinkingStarted && !this.thinkingDone)) out += this.stop();
    const reason = stopReason(r.doneReason, this.sent.size > 0);
    out += this.ev("message_delta", {
      delta: reason ? { stop_reason: reason } : {},
      usage: { input_tokens: r.promptEvalCount, output_tokens: r.evalCount },
    });
    return out + this.ev("message_stop", {});
  }
}
