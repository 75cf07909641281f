/**
 * The traces list for real use: what each trace was (the question, when, how it ended, where it came from),
 * conversations grouped with their turns (traces whose /agent call carried the same conversationId), a text
 * search, and imported traces apart from live ones. Pure: the facts come from each trace's exchanges.
 */
import type { ExchangeSummary, TraceSummary } from "@hopscope/shared/trace/schemas";
import { outcomeOf } from "./outcome";

export type TraceOutcome = "answered" | "tool error" | "error" | "gave up" | "recording";

export interface TraceFacts {
  question?: string;
  conversationId?: string;
  outcome: TraceOutcome;
}

/** A trace's facts from its exchanges: the question and conversation of its /agent call, and how it ended. */
export function factsOf(exchanges: readonly ExchangeSummary[]): TraceFacts {
  const agent = exchanges.find((x) => x.tap === "agent" && x.classification.kind === "agent");
  const c = agent?.classification.kind === "agent" ? agent.classification : undefined;
  const outcomes = exchanges.map(outcomeOf);
  const outcome: TraceOutcome = outcomes.includes("pending")
    ? "recording"
    : outcomes.some((o) => o === "error" || o === "protocol-error")
      ? "error"
      : agent && c?.reply === undefined
        ? "gave up"
        : outcomes.includes("tool-error")
          ? "tool error"
          : "answered";
  return {
    ...(c?.message ? { question: c.message } : {}),
    ...(c?.conversationId ? { conversationId: c.conversationId } : {}),
    outcome,
  };
}

export interface TraceGroup {
  /** The conversation, or the trace's own id when it stands alone. */
  key: string;
  conversationId?: string;
  /** Oldest turn first. */
  turns: TraceSummary[];
}

/** Matches a search: the trace's name or question, case-insensitive; an empty query matches all. */
export function matchesSearch(t: TraceSummary, facts: TraceFacts | undefined, query: string): boolean {
  const q = query.trim().toLowerCase();
  if (!q) return true;
  return t.name.toLowerCase().includes(q) || (facts?.question ?? "").toLowerCase().includes(q);
}

/**
 * Live and imported traces apart; within each, conversations grouped (turns oldest first), groups newest
 * first. `traces` is newest first, as the list model keeps it.
 */
export function groupTraces(
  traces: readonly TraceSummary[],
  facts: ReadonlyMap<string, TraceFacts>,
  query = "",
): { live: TraceGroup[]; imported: TraceGroup[] } {
  // Decided oldest first, so the original of a copy is the turn and the copy stands apart; each group is
  // then placed by its newest trace, newest first, as the list is.
  const newest = new Map<TraceGroup, number>();
  const byConversation = new Map<string, TraceGroup>();
  const groups: TraceGroup[] = [];
  for (let i = traces.length - 1; i >= 0; i--) {
    const t = traces[i] as TraceSummary;
    if (!matchesSearch(t, facts.get(t.id), query)) continue;
    const conv = facts.get(t.id)?.conversationId;
    const key = conv ? `${t.source}:${conv}` : t.id;
    const existing = conv ? byConversation.get(key) : undefined;
    // A trace that started when one of the group's turns did is a copy of that turn (the same file
    // imported or opened again), not the conversation's next turn: it stands on its own. So is an imported
    // trace asking a turn's question again (a replay of it: its own start time, the same question).
    const question = facts.get(t.id)?.question;
    const copy = (turn: TraceSummary) =>
      turn.createdAt === t.createdAt ||
      (t.source === "imported" && question !== undefined && facts.get(turn.id)?.question === question);
    if (existing && !existing.turns.some(copy)) {
      existing.turns.push(t);
      newest.set(existing, i);
      continue;
    }
    const group: TraceGroup = existing
      ? { key: t.id, turns: [t] }
      : { key, turns: [t], ...(conv ? { conversationId: conv } : {}) };
    if (conv && !existing) byConversation.set(key, group);
    groups.push(group);
    newest.set(group, i);
  }
  groups.sort((a, b) => (newest.get(a) ?? 0) - (newest.get(b) ?? 0));
  return {
    live: groups.filter((g) => g.turns[0]?.source !== "imported"),
    imported: groups.filter((g) => g.turns[0]?.source === "imported"),
  };
}
