/**
 * Reading recorded bodies. Bodies are untrusted bytes: everything here returns plain strings or
 * parsed JSON values that components render as text nodes, never as HTML.
 */
import { parseJson } from "@hopscope/shared/json/parse";
import { REDACTED, isSecretHeader } from "@hopscope/shared/trace/redact";
import { z } from "zod";
import { OllamaToolCallSchema } from "@hopscope/shared/ollama/schemas";
import { rawOutputFromChunks, type RawOutputChunk } from "@hopscope/shared/toolcall/raw-output";
import type { Body, Chunk } from "@hopscope/shared/trace/schemas";

/** Above this many characters a body is shown truncated until the user asks for all of it. */
export const DISPLAY_LIMIT = 200_000;
/** Above this many characters a body is not pretty-printed or parsed into a tree (it stays raw text). */
export const PRETTY_LIMIT = 1_000_000;

function base64ToBytes(data: string): Uint8Array {
  const bin = atob(data);
  const bytes = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
  return bytes;
}

/** The body's bytes as UTF-8 (base64 bodies are decoded; invalid sequences become U+FFFD). */
export function bodyText(body: Body | null): string {
  if (!body) return "";
  if (body.encoding === "utf8") return body.data;
  return new TextDecoder("utf-8", { fatal: false }).decode(base64ToBytes(body.data));
}

export function bodyBytes(body: Body | null): Uint8Array {
  if (!body) return new Uint8Array();
  return body.encoding === "utf8" ? new TextEncoder().encode(body.data) : base64ToBytes(body.data);
}

/**
 * Parses JSON, or returns undefined (a body that is not JSON, or nested too deep for the tree view to
 * walk, is still shown, as text).
 */
export function tryJson(text: string): unknown {
  if (text.length === 0 || text.length > PRETTY_LIMIT) return undefined;
  try {
    return parseJson(text);
  } catch {
    return undefined; // not JSON: the caller falls back to raw text, which is the expected case for NDJSON/SSE
  }
}

/** The JSON values of a body: one for JSON, one per line for NDJSON, one per `data:` for SSE. */
export function jsonValues(text: string): unknown[] {
  const whole = tryJson(text);
  if (whole !== undefined) return [whole];
  if (text.length > PRETTY_LIMIT) return [];
  const values: unknown[] = [];
  const lines = text.split(/\r?\n/);
  const isSse = lines.some((l) => l.startsWith("data:"));
  for (const line of lines) {
    const payload = isSse ? (line.startsWith("data:") ? line.slice(5).trim() : "") : line.trim();
    if (!payload) continue;
    const v = tryJson(payload);
    if (v !== undefined) values.push(v);
  }
  return values;
}

/**
 * Pretty text for display: indented JSON; one indented value per NDJSON line; SSE with each `data:`
 * payload indented (the event framing kept); anything else as it is.
 */
export function prettyText(text: string): string {
  const whole = tryJson(text);
  if (whole !== undefined) return JSON.stringify(whole, null, 2);
  if (text.length > PRETTY_LIMIT) return text;
  const lines = text.split(/\r?\n/);
  if (lines.some((l) => l.startsWith("data:"))) {
    return lines
      .map((l) => {
        if (!l.startsWith("data:")) return l;
        const v = tryJson(l.slice(5).trim());
        return v === undefined ? l : `data: ${JSON.stringify(v, null, 2)}`;
      })
      .join("\n");
  }
  const values = jsonValues(text);
  if (values.length > 1) return values.map((v) => JSON.stringify(v, null, 2)).join("\n");
  return text;
}

/** Each chunk's text, sliced from the stored body by byte offset (chunks may split UTF-8 sequences). */
export function chunkTexts(body: Body | null, chunks: readonly Chunk[]): string[] {
  const bytes = bodyBytes(body);
  const decoder = new TextDecoder("utf-8", { fatal: false });
  return chunks.map((c) => decoder.decode(bytes.subarray(c.offset, c.offset + c.size), { stream: true }));
}

/** The message part of an Ollama `/api/chat` NDJSON chunk, as far as reconstruction needs it. */
const ChunkMessageSchema = z.looseObject({
  content: z.string().default(""),
  tool_calls: z.array(OllamaToolCallSchema).optional(),
});

/**
 * What a streamed model response has produced so far, from its raw chunk texts: for Ollama NDJSON,
 * the model's raw text rebuilt from the chunks (content, then `<tool_call>` blocks — see
 * rawOutputFromChunks); for OpenAI-style SSE, the `delta.content`s. A line split across chunks is
 * only read once complete.
 */
export function streamedContent(texts: readonly string[]): string {
  const joined = texts.join("");
  const complete = joined.slice(0, joined.lastIndexOf("\n") + 1);
  const ollama: RawOutputChunk[] = [];
  let sse = "";
  for (const v of jsonValues(complete)) {
    const o = v as {
      message?: unknown;
      choices?: { delta?: { content?: unknown } }[];
      type?: unknown;
      delta?: unknown;
    };
    const m = ChunkMessageSchema.safeParse(o.message);
    if (m.success) ollama.push({ message: m.data });
    // Text deltas of each dialect's stream: OpenAI chat, Anthropic content_block_delta, OpenAI Responses.
    const delta = o.choices?.[0]?.delta?.content;
    if (typeof delta === "string") sse += delta;
    const block =
      o.type === "content_block_delta" && typeof o.delta === "object" && o.delta !== null
        ? (o.delta as { text?: unknown }).text
        : undefined;
    if (typeof block === "string") sse += block;
    if (o.type === "response.output_text.delta" && typeof o.delta === "string") sse += o.delta;
  }
  return ollama.length ? rawOutputFromChunks(ollama) : sse;
}

/** Header values the recorder's rule set calls secret are never shown, even if an old recording kept one. */
export function displayHeaderValue(name: string, value: string): string {
  return isSecretHeader(name) ? REDACTED : value;
}

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${(n / 1024 / 1024).toFixed(1)} MB`;
}

export function formatMs(ms: number): string {
  if (ms < 1) return `${ms.toFixed(2)} ms`;
  if (ms < 1000) return `${Math.round(ms)} ms`;
  return `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;
}
