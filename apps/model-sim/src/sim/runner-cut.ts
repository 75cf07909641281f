/**
 * The runner's own cut, after chatPrompt: a prompt that still does not fit (chatPrompt always keeps the
 * system messages and the last message, whatever their size) is cut token by token before the model reads
 * it. The stand-in cuts the same tokens, reports the same `prompt_eval_count`, and decides only from what
 * is left: the tools whose names survive, the messages (or the ends of messages) that survive.
 *
 * - from 0.30.0 (llama-server): llm/llama_server.go `completionPromptForRequest` — fits when it has at most
 *   num_ctx − 1 tokens; else, with context shift on (server/sched.go `resolveContextShift`: on unless the
 *   request sets `shift: false`, and qwen2 is not deepseek2), it keeps the first num_keep tokens (api/types.go
 *   DefaultOptions: 4; qwen2 adds no BOS) and the last `contextShiftPromptLimit` − num_keep
 *   (limit = num_ctx − max((num_ctx − num_keep) / 2, 1)): about half the window. With shift off: a 400.
 * - before (runner/llamarunner/runner.go and runner/ollamarunner/runner.go `inputs`): over num_ctx tokens it
 *   keeps the first num_keep and the last num_ctx − num_keep.
 * - `truncate: false`: the runner refuses instead of cutting ("the input length exceeds the context length").
 * num_ctx here is the runner's: llm/server.go `NewLlamaServer` caps it at the trained 32768.
 */
import type { OllamaMessage, OllamaTool } from "@hopscope/shared/ollama/schemas";
import { QWEN25_CONTEXT_LENGTH } from "@hopscope/shared/ollama/qwen25-facts";
import type { QwenTokenizer } from "@hopscope/shared/tokens/qwen";
import { atLeast } from "@hopscope/shared/prompt/version";
import { OllamaError } from "./ollama-error";

const NUM_KEEP = 4;
const LLAMA_SERVER_SINCE = "0.30.0-rc0";

export interface RunnerInput {
  text: string;
  tokenCount: number;
  /** Where in `text` the kept tail starts (0 when nothing was cut). */
  tailStart: number;
}

function options(raw: Record<string, unknown>): { numKeep: number } {
  const o = (raw.options ?? {}) as { num_keep?: unknown };
  return { numKeep: typeof o.num_keep === "number" ? Math.trunc(o.num_keep) : NUM_KEEP };
}

/** `tokens` are `text`'s token ids, as the truncation counted them. */
export function cutForRunner(
  text: string,
  tokens: readonly number[],
  tokenizer: QwenTokenizer,
  numCtx: number,
  raw: Record<string, unknown>,
  version: string,
): RunnerInput {
  const runnerCtx = Math.max(4, Math.min(numCtx, QWEN25_CONTEXT_LENGTH));
  const llamaServer = atLeast(version, LLAMA_SERVER_SINCE);
  const fits = llamaServer ? tokens.length <= runnerCtx - 1 : tokens.length <= runnerCtx;
  if (fits) return { text, tokenCount: tokens.length, tailStart: 0 };
  if (raw.truncate === false) throw new OllamaError(400, "the input length exceeds the context length");
  if (llamaServer && raw.shift === false) {
    throw new OllamaError(
      400,
      "the prompt is longer than the context length currently available to the model; shorten the prompt, adjust the context length in settings, or use a model with a longer context length",
    );
  }
  let nKeep = options(raw).numKeep;
  if (nKeep < 0) nKeep = tokens.length;
  nKeep = Math.min(nKeep, runnerCtx - 1);
  const limit = llamaServer ? runnerCtx - Math.max(Math.floor((runnerCtx - Math.max(0, nKeep)) / 2), 1) : runnerCtx;
  const head = tokens.slice(0, nKeep);
  const tail = tokens.slice(tokens.length - (limit - nKeep));
  const tailText = tokenizer.decode(tail);
  return {
    text: tokenizer.decode(head) + tailText,
    tokenCount: head.length + tail.length,
    tailStart: text.length - tailText.length,
  };
}

/**
 * The tools whose names are in the kept tail. The template writes one declaration a line inside `<tools>`,
 * in order (the dump's format changes between versions, the line per tool does not).
 */
function toolsSeen(text: string, tailStart: number, tools: OllamaTool[]): OllamaTool[] {
  const open = text.indexOf("<tools>\n");
  const close = text.indexOf("\n</tools>", open);
  if (open === -1 || close === -1) return [];
  let lineStart = open + "<tools>\n".length;
  const lines = text.slice(lineStart, close).split("\n");
  if (lines.length !== tools.length) return tools.filter((t) => text.indexOf(t.function.name, tailStart) !== -1);
  return tools.filter((t, k) => {
    const at = lines[k]!.indexOf(t.function.name);
    const seen = at !== -1 && lineStart + at >= tailStart;
    lineStart += lines[k]!.length + 1;
    return seen;
  });
}

/**
 * What survives in the text from `tailStart` on: the tools whose names the model can still read, and the
 * messages located in the rendered prompt (system text first, as qwen2.5's template puts it) — a message cut
 * in the middle keeps its end, as the model reads it.
 */
export function seenAfterCut(
  text: string,
  tailStart: number,
  messages: OllamaMessage[],
  tools: OllamaTool[],
): { messages: OllamaMessage[]; tools: OllamaTool[] } {
  if (tailStart === 0) return { messages, tools };
  const seenTools = toolsSeen(text, tailStart, tools);
  const order = [...messages.filter((m) => m.role === "system"), ...messages.filter((m) => m.role !== "system")];
  const seen = new Set<OllamaMessage>();
  const cutTo = new Map<OllamaMessage, string>();
  let from = 0;
  for (const m of order) {
    const needle = m.content !== "" ? m.content : m.tool_calls?.[0] ? `"${m.tool_calls[0].function.name}"` : "";
    if (needle === "") continue;
    const at = text.indexOf(needle, from);
    if (at === -1) continue;
    from = at + needle.length;
    if (at >= tailStart) seen.add(m);
    else if (from > tailStart && m.content !== "") {
      seen.add(m);
      cutTo.set(m, m.content.slice(tailStart - at));
    }
  }
  const kept = messages.filter((m) => seen.has(m)).map((m) => (cutTo.has(m) ? { ...m, content: cutTo.get(m)! } : m));
  return { messages: kept, tools: seenTools };
}
