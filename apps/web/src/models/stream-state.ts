/**
 * What is known of a model's answer at the moment on screen, for its caption: nothing back yet (with
 * how long it has been), text arriving, a tool call being written, done, or cut before its final chunk.
 * A `<tool_call>` is detected as the text grows with the project's own streaming parser (Ollama's
 * state machine, shared/src/toolcall/parser), fed only the new text each time.
 */
import { QWEN_TOOL_CALL_TAG, ToolCallParser, findTag } from "@hopscope/shared/toolcall/parser";
import type { ExchangeSummary } from "@hopscope/shared/trace/schemas";
import { jsonValues } from "./body";

export interface Durations {
  loadMs?: number;
  promptMs?: number;
  promptTokens?: number;
  evalMs?: number;
  evalTokens?: number;
}

export type StreamState =
  | { kind: "waiting"; elapsedMs: number; hasTools: boolean; streamed: boolean }
  | { kind: "arriving" }
  | { kind: "text"; tokens: number; tokensPerSecond: number | null }
  | { kind: "tool-call"; tokens: number; tokensPerSecond: number | null; toolName: string | null }
  | { kind: "done"; durations: Durations | null }
  | { kind: "cut"; inToolCall: boolean; tokens: number };

export interface StreamInput {
  x: ExchangeSummary;
  /** The model's text so far (raw, `<tool_call>` included), or null when none has been seen. */
  text: string | null;
  /** Chunks carrying a token so far (Ollama sends about one token per chunk). */
  tokens: number;
  /** Whether the response has ended at the moment on screen. */
  ended: boolean;
  now: number;
}

/** Incremental detection, one parser per exchange, fed only what is new (texts only grow). */
const parsers = new Map<number, { parser: ToolCallParser; fed: string; content: number }>();
const MAX_PARSERS = 50;

export function inToolCall(exchangeId: number, text: string): boolean {
  let p = parsers.get(exchangeId);
  if (!p || !text.startsWith(p.fed)) {
    // An empty tool list: calls never complete here, but the tag still switches the parser to calling.
    p = { parser: new ToolCallParser([], QWEN_TOOL_CALL_TAG), fed: "", content: 0 };
    parsers.set(exchangeId, p);
    if (parsers.size > MAX_PARSERS) parsers.delete(parsers.keys().next().value as number);
  }
  if (text.length > p.fed.length) {
    p.content += p.parser.add(text.slice(p.fed.length)).content.length;
    p.fed = text;
  }
  // A partial tag at the end is held back, not swallowed: only text the parser swallowed is a call.
  const tag = findTag(text, QWEN_TOOL_CALL_TAG);
  const held = !tag.found && tag.index >= 0 ? text.length - tag.index : 0;
  return p.content + held < text.length;
}

function toolNameIn(text: string): string | null {
  const after = text.slice(text.indexOf(QWEN_TOOL_CALL_TAG) + QWEN_TOOL_CALL_TAG.length);
  return /"name"\s*:\s*"([^"]+)"/.exec(after)?.[1] ?? null;
}

function durationsOf(x: ExchangeSummary): Durations | null {
  const c = x.classification;
  if (c.kind !== "model.chat" || (c.loadDuration === undefined && c.evalDuration === undefined)) return null;
  const ms = (ns: number | undefined) => (ns === undefined ? undefined : ns / 1e6);
  return {
    loadMs: ms(c.loadDuration),
    promptMs: ms(c.promptEvalDuration),
    promptTokens: c.promptEvalCount,
    evalMs: ms(c.evalDuration),
    evalTokens: c.evalCount,
  };
}

/** An ended answer that had begun (a first byte) but never got the model server's final chunk. */
export function wasCut(x: ExchangeSummary): boolean {
  const c = x.classification;
  // A refusal (an HTTP error status) is a whole answer, not a stream that was cut.
  if (x.status !== null && x.status >= 400) return false;
  const cut =
    x.state === "aborted" ||
    x.state === "error" ||
    (c.kind === "model.chat" && c.stream && c.doneReason === undefined && x.state === "complete");
  return cut && x.timings.firstByte !== null;
}

export function streamState({ x, text, tokens, ended, now }: StreamInput): StreamState {
  const c = x.classification;
  const calling = text !== null && inToolCall(x.id, text);
  if (ended) {
    if (wasCut(x)) return { kind: "cut", inToolCall: calling, tokens };
    return { kind: "done", durations: durationsOf(x) };
  }
  if (x.timings.firstByte === null) {
    return {
      kind: "waiting",
      elapsedMs: Math.max(0, now - (x.timings.requestEnd ?? x.timings.start)),
      hasTools: c.kind === "model.chat" && c.toolCount > 0,
      // Ollama streams unless the request says `stream: false`.
      streamed: c.kind !== "model.chat" || c.stream,
    };
  }
  // Not streamed (stream: false): the answer comes whole; what it holds is known once it has all arrived.
  if (c.kind === "model.chat" && !c.stream) return { kind: "arriving" };
  const secs = (now - x.timings.firstByte) / 1000;
  const tokensPerSecond = secs > 0.25 && tokens > 1 ? tokens / secs : null;
  if (calling) return { kind: "tool-call", tokens, tokensPerSecond, toolName: text === null ? null : toolNameIn(text) };
  return { kind: "text", tokens, tokensPerSecond };
}

/** Chunks that carried something (an NDJSON line or SSE event that is not the final `done`). */
export function tokenChunks(texts: readonly string[]): number {
  let n = 0;
  for (const v of jsonValues(texts.join(""))) {
    const o = v as { done?: unknown; choices?: unknown };
    if (o && typeof o === "object" && o.done !== true) n++;
  }
  return n;
}
