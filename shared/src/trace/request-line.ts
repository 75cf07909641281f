/**
 * A model request's place in its conversation, in hashes (RequestLineSchema): its system prompt, each
 * message of its history, the tools it offers, the body as sent, and the side task its own words name.
 * Read from the request as Ollama would take it (dialects/convert's native messages), so every dialect
 * compares alike: Anthropic's `system` and a Responses request's `developer` messages are system prompt,
 * a content list of text blocks is its text, cache markers that move from turn to turn are not content.
 * run-lines.ts compares these across a run. Pure and isomorphic.
 */
import type { RequestLine } from "./schemas";
import { isRecord, ownCopy } from "./json-text";

/** Hashes kept per request for the history; longer histories compare by `history` and `turnCount` past them. */
const MAX_TURNS = 256;
const MAX_HEAD = 120;

/**
 * What a side request wraps around the conversation it reads, as its first user words say (opencode's
 * "Generate a title for this conversation:"), and the side task each names.
 */
export const SIDE_REQUEST_WORDING: readonly (readonly [RegExp, string])[] = [
  [/^\s*generate a (?:short )?title for (?:this|the following) conversation[^:\n]*:\s*/i, "title generation"],
  [/^\s*(?:please )?summari[sz]e (?:this|the following) (?:coding )?conversation[^:\n]*:\s*/i, "summary"],
];

/** Side tasks a system prompt's first sentence names ("You are a title generator."). */
const SIDE_PURPOSES: readonly (readonly [RegExp, string])[] = [
  [/\btitles?\b/i, "title generation"],
  [/\btopics?\b/i, "topic detection"],
  [/\bmemor(?:y|ies)\b/i, "memory"],
  [/\b(?:summar(?:y|ies|i[sz]e\w*)|compact\w*)\b/i, "summary"],
];

/**
 * Claude Code's first system block: a billing line whose version suffix is derived from the request, not
 * part of what the model is told to be.
 */
const BILLING_LINE = /^x-anthropic-billing-header:[^\n]*\n?/;

interface NativeMessage {
  role: string;
  content: string;
  rest: string;
}

/**
 * The line of a request Ollama would take as `native` (toNative's output); `body` is the body as sent, as
 * text or as its UTF-8 bytes (a recorder that kept a big body undecoded hashes it without decoding it).
 */
export function requestLineOf(native: Record<string, unknown>, body: string | Uint8Array): RequestLine {
  const messages = (Array.isArray(native.messages) ? native.messages : []).map(nativeMessage);
  const system = messages
    .filter((m) => m.role === "system" || m.role === "developer")
    .map((m) => m.content.replace(BILLING_LINE, ""))
    .join("\n");
  const turns = messages
    .filter((m) => m.role !== "system" && m.role !== "developer")
    .map((m) => hashText(`${m.role}\u0000${m.content}\u0000${m.rest}`));
  const head = firstSentence(system);
  const tools = toolNames(native.tools).sort();
  const purpose = purposeOf(head, messages.filter((m) => m.role === "user").at(-1)?.content ?? "");
  return {
    system: hashText(system),
    head,
    turns: turns.slice(0, MAX_TURNS),
    turnCount: turns.length,
    history: hashText(turns.join(",")),
    tools: hashText(tools.join("\u0000")),
    body: hashBytes(typeof body === "string" ? new TextEncoder().encode(body) : body),
    ...(purpose ? { purpose } : {}),
  };
}

function nativeMessage(m: unknown): NativeMessage {
  if (!isRecord(m)) return { role: "", content: JSON.stringify(m) ?? "", rest: "" };
  const { role, content, ...rest } = m;
  return {
    role: typeof role === "string" ? role : "",
    content: typeof content === "string" ? content : (JSON.stringify(content) ?? ""),
    rest: Object.keys(rest).length > 0 ? JSON.stringify(rest) : "",
  };
}

function toolNames(tools: unknown): string[] {
  if (!Array.isArray(tools)) return [];
  return tools.flatMap((t) => {
    const fn = isRecord(t) && isRecord(t.function) ? t.function : undefined;
    return typeof fn?.name === "string" ? [fn.name] : isRecord(t) && typeof t.name === "string" ? [t.name] : [];
  });
}

/** The system prompt's first sentence (or line), clipped: what the timeline quotes of a side request. */
function firstSentence(system: string): string {
  const text = system.trimStart();
  const end = text.search(/[.!?](?:\s|$)|\n/);
  const sentence = (end < 0 ? text : text.slice(0, text[end] === "\n" ? end : end + 1)).trim();
  return ownCopy(sentence.length <= MAX_HEAD ? sentence : `${sentence.slice(0, MAX_HEAD - 1)}…`);
}

/** The side task a request names: in its system prompt's first sentence, or in the wording of its last user message. */
function purposeOf(head: string, lastUser: string): string | undefined {
  for (const [wording, purpose] of SIDE_REQUEST_WORDING) if (wording.test(lastUser)) return purpose;
  for (const [word, purpose] of SIDE_PURPOSES) if (word.test(head)) return purpose;
  return undefined;
}

/**
 * A 53-bit hash of a string, as 11 base-36 digits (cyrb53, public domain: two multiplicative lanes mixed at
 * the end). Enough to tell one run's requests apart; not a cryptographic digest.
 */
export function hashText(text: string): string {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 2654435761);
    h2 = Math.imul(h2 ^ c, 1597334677);
  }
  return mixed(h1, h2);
}

/**
 * A 53-bit hash of bytes (the body as sent, however it was kept), in the same form as hashText's: four
 * MurmurHash3 lanes (public domain) over little-endian 32-bit words, folded together. A coding agent's body
 * is tens of kilobytes per request; one lane over single bytes waits on each multiply in turn, four
 * independent lanes over words do not. The rotations carry every bit of a word into the low bits the output
 * keeps.
 */
export function hashBytes(bytes: Uint8Array): string {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const whole = bytes.length - (bytes.length % 16);
  let a = 0xdeadbeef;
  let b = 0x41c6ce57;
  let c = 0x9e3779b9;
  let d = 0x85ebca6b;
  let i = 0;
  for (; i < whole; i += 16) {
    a = murmurStep(a, view.getUint32(i, true));
    b = murmurStep(b, view.getUint32(i + 4, true));
    c = murmurStep(c, view.getUint32(i + 8, true));
    d = murmurStep(d, view.getUint32(i + 12, true));
  }
  let tail = 0;
  for (let k = 0; i < bytes.length; i++, k++) tail = murmurStep(tail ^ k, bytes[i]!);
  a = murmurStep(murmurStep(a, b), tail);
  c = murmurStep(murmurStep(c, d), bytes.length);
  return mixed(a, c);
}

function murmurStep(h: number, word: number): number {
  let k = Math.imul(word, 0xcc9e2d51);
  k = Math.imul((k << 15) | (k >>> 17), 0x1b873593);
  h ^= k;
  h = (h << 13) | (h >>> 19);
  return (Math.imul(h, 5) + 0xe6546b64) | 0;
}

function mixed(h1: number, h2: number): string {
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return (4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(36).padStart(11, "0");
}
