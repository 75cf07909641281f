/**
 * Plain words for what the context window did to a prompt (the views' `truncation`): which messages went, what
 * they cost, whether the learner's question went with them, the context length in force and how to raise it for
 * this client. Also the groups of the context picture. Pure: the components only lay these out.
 */
import type { TokenBudgetView, TruncationView } from "@hopscope/shared/trace/views";

const n = (x: number): string => x.toLocaleString("en");

/** "/messages/0 (user)" for the first few (the client's own JSON pointers); "and 4 more" after. */
function messageList(t: TruncationView, roles: ReadonlyMap<number, string>): string {
  const shown = t.dropped.slice(0, 3).map((i, k) => {
    const role = roles.get(i);
    return `${t.droppedPaths[k] ?? `message ${i + 1}`}${role ? ` (${role})` : ""}`;
  });
  const rest = t.dropped.length - shown.length;
  if (rest > 0) return `${shown.join(", ")} and ${rest} more`;
  return shown.length <= 1 ? shown.join("") : `${shown.slice(0, -1).join(", ")} and ${shown.at(-1)}`;
}

/** A context length with room to spare for this prompt: the next power of two above a quarter more than it. */
export function roomFor(tokens: number): number {
  return Math.max(8192, 2 ** Math.ceil(Math.log2(tokens * 1.25)));
}

function windowWords(t: TruncationView): string {
  if (t.contextSource === "request") return `the ${n(t.contextLength)}-token window the request set (num_ctx)`;
  if (t.contextSource === "evaluated")
    return `a window of at most ${n(t.contextLength)} tokens (the server evaluated only that many)`;
  return `a ${n(t.contextLength)}-token context window (the server's default)`;
}

/** How to give this client's requests a bigger window. */
export function raiseWords(t: TruncationView, dialectLabel: string | undefined): string {
  const room = roomFor(t.renderedTokens);
  const server = `start the model server with OLLAMA_CONTEXT_LENGTH=${room}`;
  return t.numCtxInRequest
    ? `To fit it, set "options": {"num_ctx": ${room}} in the request, or ${server}.`
    : `To fit it, ${server}: ${dialectLabel ?? "this client's dialect"} carries no num_ctx.`;
}

/** The sentence shown above the prompt: what went, what it cost, and the window that made it go. */
export function truncationWords(t: TruncationView, roles: ReadonlyMap<number, string>): string {
  const lost = n(t.renderedTokens - t.keptTokens);
  const parts: string[] =
    t.dropped.length > 0
      ? [
          `Ollama cut this conversation to fit ${windowWords(t)}: it dropped ${messageList(t, roles)} — ${lost} tokens` +
            (t.questionDropped ? ", your question among them: the model never read it." : "."),
        ]
      : [`This prompt is ${n(t.renderedTokens)} tokens, more than ${windowWords(t)}.`];
  if (t.stillTooLong)
    parts.push(
      `Even so it is ${n(t.keptTokens)} tokens, too long: the runner refuses it or cuts tokens out of its middle.`,
    );
  return parts.join(" ");
}

export type PictureGroup = "system" | "tools" | "messages" | "tool-results" | "generation" | "cut";

export const GROUP_LABELS: Record<PictureGroup, string> = {
  system: "System prompt",
  tools: "Tool definitions",
  messages: "Messages",
  "tool-results": "Tool results",
  generation: "Waiting assistant turn",
  cut: "Cut (never reached the model)",
};

type Part = TokenBudgetView["parts"][number];

export function groupOf(p: Part, cut: ReadonlySet<number>): PictureGroup {
  if (p.messageIndex !== undefined && cut.has(p.messageIndex)) return "cut";
  if (p.kind === "system") return "system";
  if (p.kind === "tool" || p.kind === "tool-instructions") return "tools";
  if (p.kind === "generation") return "generation";
  return p.role === "tool" ? "tool-results" : "messages";
}

/** Tokens per group, in the picture's order, groups with none left out. */
export function groupTotals(b: TokenBudgetView, cut: ReadonlySet<number>): [PictureGroup, number][] {
  const totals = new Map<PictureGroup, number>();
  for (const p of b.parts) totals.set(groupOf(p, cut), (totals.get(groupOf(p, cut)) ?? 0) + p.tokens);
  return (Object.keys(GROUP_LABELS) as PictureGroup[]).flatMap((g) => (totals.get(g) ? [[g, totals.get(g)!]] : []));
}

/** "Your 38 tools cost 14,776 tokens on every call — 80% of this prompt." */
export function toolsHeadline(b: TokenBudgetView): string | null {
  if (b.toolCount === 0) return null;
  const count = b.toolCount === 5 ? "five" : n(b.toolCount);
  const pct = Math.round((b.toolsTotal / Math.max(1, b.total)) * 100);
  return `Your ${count} tool${b.toolCount === 1 ? "" : "s"} cost ${n(b.toolsTotal)} tokens on every call — ${pct}% of this prompt.`;
}
