/**
 * How a trace is named (issue 11): after the user's question, the moment the agent request carrying it is
 * seen (rank 2); else after the first user message of a model chat request (rank 1); else after its first
 * request line (rank 0). A trace keeps its name: only a better-ranked candidate replaces it (a bare model
 * trace that the question joins later), an equal one never, and a user's rename always wins (the store
 * marks it custom).
 */
import type { Classification } from "@hopscope/shared/trace/schemas";
import { isRecord } from "@hopscope/shared/trace/json-text";

export interface TraceTitle {
  title: string;
  titleRank: number;
}

/** Rank of a name the user gave (a rename, an imported trace's name): above every candidate. */
export const CUSTOM_RANK = 9;

export function titleOf(requestLine: string, c: Classification, requestJson: unknown): TraceTitle {
  if (c.kind === "agent" && c.message) return { title: clip(c.message), titleRank: 2 };
  if (c.kind === "model.chat") {
    const messages = isRecord(requestJson) && Array.isArray(requestJson.messages) ? requestJson.messages : [];
    const firstUser = messages.find((m) => isRecord(m) && m.role === "user" && typeof m.content === "string");
    if (isRecord(firstUser)) return { title: clip(String(firstUser.content)), titleRank: 1 };
  }
  if (c.kind === "mcp" && c.method) return { title: c.toolName ? `${c.method} ${c.toolName}` : c.method, titleRank: 0 };
  return { title: requestLine, titleRank: 0 };
}

/** The better of two candidates; on a tie the first one seen stays (a trace keeps its name). */
export function betterTitle(current: TraceTitle | undefined, next: TraceTitle): TraceTitle {
  return current && current.titleRank >= next.titleRank ? current : next;
}

function clip(s: string): string {
  const one = s.replace(/\s+/g, " ").trim();
  return one.length > 120 ? `${one.slice(0, 119)}…` : one;
}
