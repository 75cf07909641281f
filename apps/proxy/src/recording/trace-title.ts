/**
 * How a trace is named: after the user's question, the moment the agent request carrying it is
 * seen (rank 2); else after the question a model request carries (rank 1): the first user message of the
 * native request Ollama builds from it, in every dialect (OpenAI content parts, the Responses API's `input`,
 * Anthropic text blocks), or the prompt of a generate request (a `raw` one: its last user turn of ChatML); else after its first request line (rank 0). A trace keeps its name: only a better-ranked candidate replaces it (a bare model
 * trace that the question joins later), an equal one never, and a user's rename always wins (the store
 * marks it custom).
 */
import type { Classification } from "@hopscope/shared/trace/schemas";
import { isRecord, pathOf } from "@hopscope/shared/trace/json-text";
import { conversationOf } from "@hopscope/shared/trace/group";
import { learnerText } from "@hopscope/shared/trace/agent-run";
import { toNative } from "@hopscope/shared/dialects/convert";
import { DialectError } from "@hopscope/shared/dialects/dialect-error";
import { dialectOfPath, isChatDialect } from "@hopscope/shared/dialects/dialect";
import { chatmlTurns } from "@hopscope/shared/prompt/chatml";

export interface TraceTitle {
  title: string;
  titleRank: number;
}

/** Rank of a name the user gave (a rename, an imported trace's name): above every candidate. */
export const CUSTOM_RANK = 9;

/** `requestLine` is the exchange's `METHOD url`, as the timeline shows it. */
export function titleOf(requestLine: string, c: Classification, requestJson: unknown): TraceTitle {
  if (c.kind === "agent" && c.message) return { title: clip(c.message), titleRank: 2 };
  if (c.kind === "model.chat" || c.kind === "model.other") {
    const question = questionOf(pathOf(requestLine.slice(requestLine.indexOf(" ") + 1)), requestJson);
    if (question !== null) return { title: clip(question), titleRank: 1 };
  }
  if (c.kind === "mcp" && c.method) return { title: c.toolName ? `${c.method} ${c.toolName}` : c.method, titleRank: 0 };
  return { title: requestLine, titleRank: 0 };
}

/** The better of two candidates; on a tie the first one seen stays (a trace keeps its name). */
export function betterTitle(current: TraceTitle | undefined, next: TraceTitle): TraceTitle {
  return current && current.titleRank >= next.titleRank ? current : next;
}

/** The question a model request asks, in whichever dialect it is written; null when it carries none. */
export function questionOf(path: string, body: unknown): string | null {
  const d = dialectOfPath(path);
  if (!d || !isRecord(body)) return null;
  if (!isChatDialect(d)) {
    // The generate endpoints: the prompt Ollama is given (a body it refuses: the client's own string).
    const prompt = nativeOr(() => toNative(d, body).native.prompt, body.prompt);
    if (typeof prompt !== "string" || prompt.trim() === "") return null;
    // raw: the client wrote the chat template itself (ChatML for Qwen): its question is in its last user turn.
    return (body.raw === true ? lastUserTurn(prompt) : null) ?? prompt;
  }
  // The learner's words: what an agent injects into the turn (agent-run.ts) is not the question.
  const asked = (conversationOf(path, body) ?? []).map((m) =>
    isRecord(m) && m.role === "user" && typeof m.content === "string" ? learnerText(m.content) : "",
  );
  const first = asked.findIndex((t) => t !== "");
  if (first !== -1) {
    // The user's first turn, whole: OpenAI content parts become one native message each, read as one question.
    const turn: string[] = [];
    for (let i = first; i < asked.length && asked[i] !== ""; i++) turn.push(asked[i] as string);
    return turn.join(" ");
  }
  // A Responses body Ollama refuses still names its question when `input` is a plain string.
  return d === "openai-responses" && typeof body.input === "string" && body.input.trim() !== "" ? body.input : null;
}

/** Qwen 2.5 sends a tool's result back as a user turn of these: an answer, not a question. */
const TOOL_RESPONSE = /<tool_response>[\s\S]*?(<\/tool_response>|$)/g;

/** The text of the last user turn of a ChatML prompt that asks something; null when there is none. */
export function lastUserTurn(prompt: string): string | null {
  let last: string | null = null;
  for (const { role, content } of chatmlTurns(prompt)) {
    if (role.trim() !== "user") continue;
    const asked = content.replace(TOOL_RESPONSE, "");
    if (asked.trim() !== "") last = asked;
  }
  return last;
}

/** What Ollama makes of the body, or `fallback` for a body it refuses (a DialectError; anything else is a bug). */
function nativeOr(read: () => unknown, fallback: unknown): unknown {
  try {
    return read();
  } catch (err) {
    if (err instanceof DialectError) return fallback;
    throw err;
  }
}

function clip(s: string): string {
  const one = s.replace(/\s+/g, " ").trim();
  return one.length > 120 ? `${one.slice(0, 119)}…` : one;
}
