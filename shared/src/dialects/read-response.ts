/**
 * Reading a recorded response in any dialect back to what the model produced: its text, its tool calls (with
 * arguments as objects, whether they came as a JSON string, an Anthropic `tool_use` input or an Ollama object),
 * why it stopped and the token counts from `usage`. One reader per wire format; the classifier and the views use it.
 */
import type { Dialect } from "./dialect";
import { type Json, isObject } from "./go-decode";
import { tryParseJson } from "../json/parse";
import { parseSse, type SseEvent } from "../framing/sse";
import { parseNdjson } from "../framing/ndjson";

export interface ReadCall {
  id?: string;
  name: string;
  arguments: Json;
  /** The arguments as the client received them, when that was a JSON string (OpenAI). */
  argumentsText?: string;
}

export interface ReadResponse {
  content: string;
  sawContent: boolean;
  toolCalls: ReadCall[];
  doneReason?: string;
  promptTokens?: number;
  outputTokens?: number;
  /** Ollama's native done chunk: its numeric fields (durations in ns, counts), as sent. */
  done?: Record<string, number>;
}

/** The recorder's one reader of untrusted JSON text (undefined when it is not JSON). */
const tryJson = (text: string): unknown => tryParseJson(text);

function argsOf(text: string): Json {
  const v = tryJson(text);
  return isObject(v) ? v : {};
}

/** The text as one JSON document; undefined when it is not one (an event stream is not tried: it cannot be). */
function wholeJson(text: string): unknown {
  return /^\s*[[{]/.test(text) ? tryJson(text) : undefined;
}

/** The JSON bodies of a response: one whole JSON document, or each SSE `data:` payload (without `[DONE]`). */
export function responseBodies(text: string): Json[] {
  const whole = wholeJson(text);
  if (whole !== undefined) return isObject(whole) ? [whole] : [];
  return parseSse(text)
    .filter((e) => e.data !== "[DONE]")
    .map((e) => tryJson(e.data))
    .filter(isObject);
}

function readOpenAiChat(bodies: Json[], out: ReadResponse): void {
  const partial = new Map<number, { id?: string; name: string; args: string }>();
  for (const body of bodies) {
    if (isObject(body.usage)) {
      if (typeof body.usage.prompt_tokens === "number") out.promptTokens = body.usage.prompt_tokens;
      if (typeof body.usage.completion_tokens === "number") out.outputTokens = body.usage.completion_tokens;
    }
    const choice = Array.isArray(body.choices) ? body.choices[0] : undefined;
    if (!isObject(choice)) continue;
    if (typeof choice.finish_reason === "string") out.doneReason = choice.finish_reason;
    const msg = isObject(choice.message) ? choice.message : isObject(choice.delta) ? choice.delta : undefined;
    if (!msg) continue;
    if (typeof msg.content === "string") {
      out.content += msg.content;
      out.sawContent = true;
    }
    if (!Array.isArray(msg.tool_calls)) continue;
    msg.tool_calls.forEach((tc: unknown, i: number) => {
      if (!isObject(tc)) return;
      // Streamed calls arrive in pieces keyed by index; the arguments string builds up over deltas.
      const index = typeof tc.index === "number" ? tc.index : i;
      const e = partial.get(index) ?? { name: "", args: "" };
      if (typeof tc.id === "string" && tc.id !== "") e.id = tc.id;
      if (isObject(tc.function)) {
        if (typeof tc.function.name === "string") e.name += tc.function.name;
        if (typeof tc.function.arguments === "string") e.args += tc.function.arguments;
      }
      partial.set(index, e);
    });
  }
  out.toolCalls = [...partial.entries()]
    .sort(([a], [b]) => a - b)
    .map(([, e]) => ({
      ...(e.id ? { id: e.id } : {}),
      name: e.name,
      arguments: argsOf(e.args),
      argumentsText: e.args,
    }));
}

function readCompletions(bodies: Json[], out: ReadResponse): void {
  for (const body of bodies) {
    if (isObject(body.usage) && Array.isArray(body.choices) && body.choices.length === 0) {
      if (typeof body.usage.prompt_tokens === "number") out.promptTokens = body.usage.prompt_tokens;
      if (typeof body.usage.completion_tokens === "number") out.outputTokens = body.usage.completion_tokens;
    } else if (isObject(body.usage) && typeof body.usage.prompt_tokens === "number" && body.usage.prompt_tokens > 0) {
      out.promptTokens = body.usage.prompt_tokens;
      if (typeof body.usage.completion_tokens === "number") out.outputTokens = body.usage.completion_tokens;
    }
    const choice = Array.isArray(body.choices) ? body.choices[0] : undefined;
    if (!isObject(choice)) continue;
    if (typeof choice.text === "string") {
      out.content += choice.text;
      out.sawContent = true;
    }
    if (typeof choice.finish_reason === "string") out.doneReason = choice.finish_reason;
  }
}

/** The `response` object a Responses body is, or that a response.completed event carries. */
function finalResponse(b: unknown): Json | null {
  if (!isObject(b)) return null;
  return b.object === "response" ? b : isObject(b.response) && b.type === "response.completed" ? b.response : null;
}

/**
 * The last final `response` object of a Responses answer (whole body, or response.completed's). Its events
 * are read from the end and only those that can hold one are parsed: every event of a stream echoes the
 * request's instructions and tools, and the last one has everything.
 */
function lastFinalResponse(text: string): Json | null {
  const whole = wholeJson(text);
  if (whole !== undefined) return finalResponse(whole);
  const events = parseSse(text);
  for (let i = events.length - 1; i >= 0; i--) {
    const data = (events[i] as SseEvent).data;
    if (!data.includes('"response')) continue;
    const final = finalResponse(tryJson(data));
    if (final) return final;
  }
  return null;
}

function readResponses(final: Json | null, out: ReadResponse): void {
  if (!final) return;
  for (const item of Array.isArray(final.output) ? final.output : []) {
    if (!isObject(item)) continue;
    if (item.type === "message" && Array.isArray(item.content)) {
      for (const p of item.content)
        if (isObject(p) && typeof p.text === "string") {
          out.content += p.text;
          out.sawContent = true;
        }
    }
    if (item.type === "function_call" && typeof item.name === "string") {
      const text = typeof item.arguments === "string" ? item.arguments : "";
      out.toolCalls.push({
        ...(typeof item.call_id === "string" && item.call_id ? { id: item.call_id } : {}),
        name: item.name,
        arguments: argsOf(text),
        argumentsText: text,
      });
    }
  }
  if (typeof final.status === "string") out.doneReason = out.toolCalls.length > 0 ? "tool_calls" : final.status;
  if (isObject(final.usage)) {
    if (typeof final.usage.input_tokens === "number") out.promptTokens = final.usage.input_tokens;
    if (typeof final.usage.output_tokens === "number") out.outputTokens = final.usage.output_tokens;
  }
}

/** The token counts of a body: its own `usage`, or message_start's `message.usage`. */
function readAnthropicUsage(body: Json, out: ReadResponse): void {
  const usage = isObject(body.usage)
    ? body.usage
    : isObject(body.message) && isObject(body.message.usage)
      ? body.message.usage
      : null;
  if (usage) {
    if (typeof usage.input_tokens === "number") out.promptTokens = usage.input_tokens;
    if (typeof usage.output_tokens === "number") out.outputTokens = usage.output_tokens;
  }
}

/** A content_block_delta: text joins the content, input JSON joins the tool call its block started. */
function readAnthropicDelta(delta: Json, call: (ReadCall & { json: string }) | undefined, out: ReadResponse): void {
  if (delta.type === "text_delta" && typeof delta.text === "string") {
    out.content += delta.text;
    out.sawContent = true;
  }
  if (call && delta.type === "input_json_delta" && typeof delta.partial_json === "string")
    call.json += delta.partial_json;
}

function readAnthropic(bodies: Json[], out: ReadResponse): void {
  const partial = new Map<number, ReadCall & { json: string }>();
  const block = (b: Json, index: number) => {
    if (b.type === "text" && typeof b.text === "string") {
      out.content += b.text;
      out.sawContent = true;
    }
    if (b.type === "tool_use" && typeof b.name === "string") {
      partial.set(index, {
        ...(typeof b.id === "string" ? { id: b.id } : {}),
        name: b.name,
        arguments: isObject(b.input) ? b.input : {},
        json: "",
      });
    }
  };
  for (const body of bodies) {
    readAnthropicUsage(body, out);
    if (body.type === "message" && Array.isArray(body.content))
      body.content.forEach((b, i) => isObject(b) && block(b, i));
    if (typeof body.stop_reason === "string") out.doneReason = body.stop_reason;
    if (body.type === "message_delta" && isObject(body.delta) && typeof body.delta.stop_reason === "string")
      out.doneReason = body.delta.stop_reason;
    const index = typeof body.index === "number" ? body.index : -1;
    if (body.type === "content_block_start" && isObject(body.content_block)) block(body.content_block, index);
    if (body.type === "content_block_delta" && isObject(body.delta))
      readAnthropicDelta(body.delta, partial.get(index), out);
  }
  out.toolCalls = [...partial.entries()]
    .sort(([a], [b]) => a - b)
    .map(([, p]) => ({
      ...(p.id ? { id: p.id } : {}),
      name: p.name,
      arguments: p.json !== "" ? argsOf(p.json) : p.arguments,
    }));
}

function readOllama(text: string, out: ReadResponse): void {
  const whole = tryJson(text);
  const lines = whole !== undefined ? [whole] : parseNdjson(text, { onBadLine: "skip" });
  for (const l of lines) {
    if (!isObject(l)) continue;
    const m = isObject(l.message) ? l.message : null;
    if (m && typeof m.content === "string") {
      out.content += m.content;
      out.sawContent = true;
    }
    if (typeof l.response === "string") {
      out.content += l.response;
      out.sawContent = true;
    }
    for (const tc of m && Array.isArray(m.tool_calls) ? m.tool_calls : []) {
      if (!isObject(tc) || !isObject(tc.function) || typeof tc.function.name !== "string") continue;
      out.toolCalls.push({
        ...(typeof tc.id === "string" ? { id: tc.id } : {}),
        name: tc.function.name,
        arguments: isObject(tc.function.arguments) ? tc.function.arguments : {},
      });
    }
    if (l.done === true) {
      out.done = Object.fromEntries(Object.entries(l).filter((e): e is [string, number] => typeof e[1] === "number"));
      if (typeof l.done_reason === "string") out.doneReason = l.done_reason;
      if (typeof l.prompt_eval_count === "number") out.promptTokens = l.prompt_eval_count;
      if (typeof l.eval_count === "number") out.outputTokens = l.eval_count;
    }
  }
}

export function readResponse(d: Dialect, text: string): ReadResponse {
  const out: ReadResponse = { content: "", sawContent: false, toolCalls: [] };
  if (d === "ollama" || d === "ollama-generate") readOllama(text, out);
  else if (d === "openai-responses") readResponses(lastFinalResponse(text), out);
  else {
    const bodies = responseBodies(text);
    if (d === "openai-chat") readOpenAiChat(bodies, out);
    else if (d === "openai-completions") readCompletions(bodies, out);
    else readAnthropic(bodies, out);
  }
  return out;
}
