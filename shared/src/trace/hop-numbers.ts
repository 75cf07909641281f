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
  // Each hop is an event in time: requests at their start; a model's answer right after its request (the
  // pair reads as "3–4"); the user's reply when its /agent exchange ended, so in a trace holding several
  // questions each reply comes after the hops it caused and before the next question.
  const events: { at: number; order: number; id: number; response: boolean }[] = [];
  ordered.forEach((ex, i) => {
    events.push({ at: ex.timings.start, order: 2 * i, id: ex.id, response: false });
    if (ex.tap === "model") events.push({ at: ex.timings.start, order: 2 * i + 1, id: ex.id, response: true });
    if (ex.tap === "agent" && ex.state !== "pending" && ex.state !== "streaming") {
      events.push({
        at: ex.timings.end ?? Number.POSITIVE_INFINITY,
        order: Number.MAX_SAFE_INTEGER,
        id: ex.id,
        response: true,
      });
    }
  });
  events.sort((a, b) => a.at - b.at || a.order - b.order);
  const numbers = new Map<number, HopNumber>();
  let next = 1;
  for (const e of events) {
    const n = numbers.get(e.id);
    if (!e.response) numbers.set(e.id, { request: next++ });
    else if (n) n.response = next++;
  }
  return numbers;
}

/** "3–4" for a two-hop exchange, "5" for a single hop. */
export function formatHopNumber(n: HopNumber | undefined): string {
  if (!n) return "?";
  return n.response === undefined ? String(n.request) : `${n.request}–${n.response}`;
}
