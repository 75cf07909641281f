/**
 * The token budget of one rendered prompt: how many of its tokens went to the system prompt, to the tool
 * instructions and each tool definition, to each message of the history, and to the waiting assistant turn
 * — against the context window (`num_ctx`). It answers "what do my tools cost on every call?".
 *
 * The parts add up to the prompt's token count exactly, from one tokenisation of the whole prompt: each token
 * counts for the part its first character is in (a token straddling two parts counts for the first), so every
 * token is counted once and the parts sum to the count by construction. Linear in the prompt's length.
 */
import { OLLAMA_DEFAULT_NUM_CTX } from "../ollama/qwen25-facts";
import type { Segment } from "./segments";
import { compareVersions } from "./version";

export type BudgetKind = "system" | "tool-instructions" | "tool" | "message" | "generation";

export interface BudgetPart {
  /** Stable key: "system", "tools", "tool:2", "message:0", "generation". */
  key: string;
  kind: BudgetKind;
  /** "System prompt", "Tool: append", "Message 1 (user)", "Waiting assistant turn". */
  label: string;
  tokens: number;
  /** UTF-16 range in the prompt (first and last character of the part). */
  start: number;
  end: number;
  toolIndex?: number;
  messageIndex?: number;
  role?: string;
  /** The part ends after `newFrom`: it was not in the previous request's prompt. */
  isNew: boolean;
}

export interface TokenBudget {
  parts: BudgetPart[];
  /** The prompt's token count; the sum of `parts`. */
  total: number;
  /** Tool definitions plus the tool-calling instructions the template adds because tools were sent. */
  toolsTotal: number;
  toolCount: number;
  /** Tokens in parts that are new since the previous request (0 for the first request). */
  newTotal: number;
  /** Tokens that start in text the template wrote itself (special tokens, role headers, the tools' framing). */
  templateTotal: number;
  contextWindow: ContextWindow;
}

export interface ContextWindow {
  tokens: number;
  /** "request" when the request set options.num_ctx; otherwise the Ollama version's default. */
  source: "request" | "default";
  /** How the number was chosen, in words. */
  note: string;
}

export interface BudgetInput {
  text: string;
  segments: readonly Segment[];
  /**
   * Where each token of the whole prompt starts (UTF-16 offsets, ascending): one tokenisation of `text`
   * (the project's Qwen tokenizer: `tokenStarts(text, encode(text))`).
   */
  tokenStarts: readonly number[];
  /** Tool names by index, for labels: the native request's `tools[].function.name`. */
  toolNames?: readonly string[];
  /** Characters before this were in the previous request's prompt too. */
  newFrom?: number;
  /** `options.num_ctx` of the request, when it set one. */
  numCtx?: number;
  ollamaVersion: string;
}

/**
 * Ollama's default context window when the request sets no `num_ctx` (reference ollama-qwen25.md §truncation):
 * 2048 before 0.9, 4096 from 0.9 to 0.13; later versions pick 4k/32k/256k from the GPU's memory
 * (OLLAMA_CONTEXT_LENGTH), so 4096 is the least they use.
 */
export function contextWindow(ollamaVersion: string, numCtx?: number): ContextWindow {
  if (numCtx !== undefined && numCtx > 0)
    return {
      tokens: numCtx,
      source: "request",
      note: `num_ctx ${numCtx.toLocaleString("en")}, set in the request's options`,
    };
  if (compareVersions(ollamaVersion, "0.9.0") < 0)
    return { tokens: 2048, source: "default", note: `Ollama ${ollamaVersion}'s default (num_ctx not set)` };
  if (compareVersions(ollamaVersion, "0.14.0") < 0)
    return {
      tokens: OLLAMA_DEFAULT_NUM_CTX,
      source: "default",
      note: `Ollama ${ollamaVersion}'s default (num_ctx not set)`,
    };
  return {
    tokens: OLLAMA_DEFAULT_NUM_CTX,
    source: "default",
    note: `at least 4,096: Ollama ${ollamaVersion} picks 4k, 32k or 256k from the GPU's memory when num_ctx and OLLAMA_CONTEXT_LENGTH are not set`,
  };
}

const CONTENT: ReadonlySet<Segment["kind"]> = new Set(["system", "tool", "message", "tool-call", "tool-result"]);

function messageIndexOf(seg: Segment): number | undefined {
  if (seg.messageIndex !== undefined) return seg.messageIndex;
  const m = /^\/messages\/(\d+)/.exec(seg.path ?? "");
  return m ? Number(m[1]) : undefined;
}

function contentKey(seg: Segment): string {
  if (seg.kind === "system") return "system";
  if (seg.kind === "tool") return `tool:${seg.toolIndex ?? 0}`;
  const m = messageIndexOf(seg);
  return m === undefined ? "generation" : `message:${m}`;
}

/** The part each segment counts for: its own for content; framing goes with the content of its turn. */
function assignKeys(text: string, segments: readonly Segment[]): string[] {
  const keys: string[] = new Array<string>(segments.length);
  let turn: number[] = [];
  const flush = (): void => {
    const content = turn.filter((i) => CONTENT.has(segments[i]!.kind));
    const firstTool = content.findIndex((i) => segments[i]!.kind === "tool");
    const lastTool = content.length - 1 - [...content].reverse().findIndex((i) => segments[i]!.kind === "tool");
    let prev: number | undefined;
    for (const i of turn) {
      const seg = segments[i]!;
      if (CONTENT.has(seg.kind)) {
        keys[i] = contentKey(seg);
        prev = i;
        continue;
      }
      const next = content.find((j) => j > i);
      const nextIsFirstTool = firstTool >= 0 && next === content[firstTool];
      const afterLastTool = firstTool >= 0 && prev !== undefined && prev >= content[lastTool]!;
      // In the system turn, the "# Tools … <tools>" header and the "</tools> For each function call…" trailer
      // exist only because tools were sent: they are the tools' cost, not the system prompt's.
      if (nextIsFirstTool && (prev === undefined || segments[prev]!.kind !== "tool")) keys[i] = "tools";
      else if (afterLastTool) keys[i] = "tools";
      else if (prev !== undefined) keys[i] = contentKey(segments[prev]!);
      else if (next !== undefined) keys[i] = contentKey(segments[next]!);
      else keys[i] = "generation";
    }
    turn = [];
  };
  segments.forEach((seg, i) => {
    if (seg.kind === "special" && text.slice(seg.start, seg.end) === "<|im_start|>" && turn.length) flush();
    turn.push(i);
  });
  flush();
  return keys;
}

function label(key: string, toolNames: readonly string[] | undefined, role: string | undefined): string {
  if (key === "system") return "System prompt";
  if (key === "tools") return "Tool-calling instructions";
  if (key === "generation") return "Waiting assistant turn";
  const [kind, n] = key.split(":") as [string, string];
  if (kind === "tool") return `Tool: ${toolNames?.[Number(n)] ?? `#${Number(n) + 1}`}`;
  return `Message ${Number(n) + 1}${role ? ` (${role})` : ""}`;
}

function kindOf(key: string): BudgetKind {
  if (key === "tools") return "tool-instructions";
  return key.split(":")[0] as BudgetKind;
}

/** How many of `starts` (ascending) lie in [from, to): the tokens that begin in that range. */
function tokensIn(starts: readonly number[], from: number, to: number): number {
  return lowerBound(starts, to) - lowerBound(starts, from);
}

function lowerBound(xs: readonly number[], x: number): number {
  let lo = 0;
  let hi = xs.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (xs[mid]! < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

interface Run {
  key: string;
  start: number;
  end: number;
  seg: Segment;
  /** The first content segment of the run (system text, a tool, a message…), which names its role. */
  content?: Segment;
}

/** Runs of segments with one key, in prompt order (a key can have several runs: a message's framing and content). */
function runsOf(text: string, segments: readonly Segment[]): Run[] {
  const keys = assignKeys(text, segments);
  const runs: Run[] = [];
  segments.forEach((seg, i) => {
    const last = runs[runs.length - 1];
    if (last && last.key === keys[i] && last.end === seg.start) last.end = seg.end;
    else runs.push({ key: keys[i]!, start: seg.start, end: seg.end, seg });
    const run = runs[runs.length - 1]!;
    if (run.content === undefined && CONTENT.has(seg.kind)) run.content = seg;
  });
  return runs;
}

/** The token budget of a rendered prompt (see the module comment for why the parts sum exactly). */
export function tokenBudget(input: BudgetInput): TokenBudget {
  const { text, segments, tokenStarts: starts } = input;
  const parts = new Map<string, BudgetPart>();
  // Segments tile the text, so every token starts in exactly one run.
  for (const run of runsOf(text, segments)) {
    const tokens = tokensIn(starts, run.start, run.end);
    const role = run.content?.role ?? (run.key.startsWith("message:") ? run.seg.role : undefined);
    const existing = parts.get(run.key);
    if (existing) {
      existing.tokens += tokens;
      existing.end = run.end;
      existing.role ??= role;
      continue;
    }
    const [kind, n] = run.key.split(":");
    parts.set(run.key, {
      key: run.key,
      kind: kindOf(run.key),
      label: "",
      tokens,
      start: run.start,
      end: run.end,
      ...(kind === "tool" ? { toolIndex: Number(n) } : {}),
      ...(kind === "message" ? { messageIndex: Number(n) } : {}),
      ...(role ? { role } : {}),
      isNew: false,
    });
  }
  const list = [...parts.values()];
  for (const p of list) {
    p.label = label(p.key, input.toolNames, p.role);
    p.isNew = input.newFrom !== undefined && input.newFrom > 0 && p.end > input.newFrom;
  }
  const total = list.reduce((n, p) => n + p.tokens, 0);
  const tools = list.filter((p) => p.kind === "tool" || p.kind === "tool-instructions");
  const templateTotal = segments
    .filter((s) => s.kind === "template" || s.kind === "special")
    .reduce((n, s) => n + tokensIn(starts, s.start, s.end), 0);
  return {
    parts: list,
    total,
    toolsTotal: tools.reduce((n, p) => n + p.tokens, 0),
    toolCount: list.filter((p) => p.kind === "tool").length,
    newTotal: list.filter((p) => p.isNew).reduce((n, p) => n + p.tokens, 0),
    templateTotal,
    contextWindow: contextWindow(input.ollamaVersion, input.numCtx),
  };
}
