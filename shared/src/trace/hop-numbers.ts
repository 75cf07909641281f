/**
 * Hop numbering as in the article's Part 4 ("One /agent request, every hop"): the question going in is 1,
 * each MCP exchange is one hop (request and answer together: "tools/list returns the five tools"), each
 * model exchange is two hops (host → model, model → host), and the reply going back to the user is the
 * last. For the article's trace this gives 1 /agent, 2 tools/list, 3–4 /api/chat, 5 tools/call,
 * 6–7 /api/chat, 8 the reply. Shared by the timeline and the terminal hop log so both say the same numbers.
 */
import type { ExchangeSummary } from "./schemas";

export interface HopNumber {
  /** Number of the request arrow (or of the whole exchange when it is a single hop). */
  request: number;
  /** Number of the response arrow when the exchange counts as two hops; absent for single hops. */
  response?: number;
}

type Numbered = Pick<ExchangeSummary, "id" | "tap" | "state" | "timings">;

/** Numbers for every exchange of a trace, keyed by exchange id. Exchanges are taken in start order. */
export function hopNumbers(exchanges: readonly Numbered[]): Map<number, HopNumber> {
  const ordered = [...exchanges].sort((a, b) => a.timings.start - b.timings.start || a.id - b.id);
  const numbers = new Map<number, HopNumber>();
  const openAgent: Numbered[] = [];
  let next = 1;
  for (const ex of ordered) {
    if (ex.tap === "agent") {
      numbers.set(ex.id, { request: next++ });
      openAgent.push(ex);
    } else if (ex.tap === "model") {
      numbers.set(ex.id, { request: next++, response: next++ });
    } else {
      numbers.set(ex.id, { request: next++ });
    }
  }
  // The user's reply comes back after every hop it caused, so it takes the last numbers, once it has ended.
  for (const ex of openAgent) {
    const n = numbers.get(ex.id);
    if (n && ex.state !== "pending" && ex.state !== "streaming") n.response = next++;
  }
  return numbers;
}

/** "3–4" for a two-hop exchange, "5" for a single hop. */
export function formatHopNumber(n: HopNumber | undefined): string {
  if (!n) return "?";
  return n.response === undefined ? String(n.request) : `${n.request}–${n.response}`;
}
