/**
 * The token budget of one rendered prompt: how many of its tokens went to the system prompt, to the tool
 * instructions and each tool definition, to each message of the history, and to the waiting assistant turn
 * — against the context window (`num_ctx`). It answers "what do my tools cost on every call?".
 *
 * The parts add up to the prompt's token count exactly. The prompt is cut at each `<|im_start|>`: the Qwen
 * tokenizer splits on special tokens before anything else, so each turn tokenizes on its own and the turns'
 * counts sum to the whole. Inside a turn, a part's count is the turn's prefix count up to the part's end minus
 * the prefix count before it (a token straddling two parts counts for the first), so the parts sum to the turn.
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
  /** The tokenizer's count (the project's Qwen tokenizer: `count(text)`). */
  count: (text: string) => number;
  /** Tool names by index, for labels. */
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

/** The token budget of a rendered prompt (see the module comment for why the parts sum exactly). */
export function tokenBudget(input: BudgetInput): TokenBudget {
  const { text, segments, count } = input;
  const keys = assignKeys(text, segments);
  // Runs of one key inside one turn: [key, start, end, turnStart].
  const runs: { key: string; start: number; end: number; turnStart: number; seg: Segment }[] = [];
  let turnStart = 0;
  segments.forEach((seg, i) => {
    if (seg.kind === "special" && text.slice(seg.start, seg.end) === "<|im_start|>") turnStart = seg.start;
    const last = runs[runs.length - 1];
    if (last && last.key === keys[i] && last.turnStart === turnStart) last.end = seg.end;
    else runs.push({ key: keys[i]!, start: seg.start, end: seg.end, turnStart, seg });
  });
  const parts = new Map<string, BudgetPart>();
  for (const run of runs) {
    const before = run.start === run.turnStart ? 0 : count(text.slice(run.turnStart, run.start));
    const tokens = count(text.slice(run.turnStart, run.end)) - before;
    const firstContent = segments.find((s) => s.start >= run.start && s.end <= run.end && CONTENT.has(s.kind));
    const role = firstContent?.role ?? (run.key.startsWith("message:") ? run.seg.role : undefined);
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
  return {
    parts: list,
    total,
    toolsTotal: tools.reduce((n, p) => n + p.tokens, 0),
    toolCount: list.filter((p) => p.kind === "tool").length,
    newTotal: list.filter((p) => p.isNew).reduce((n, p) => n + p.tokens, 0),
    contextWindow: contextWindow(input.ollamaVersion, input.numCtx),
  };
}
