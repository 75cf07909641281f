/**
 * Hop numbering: turns a trace's exchanges into the numbered arrows of the sequence view, numbered
 * the way the article's Part 4 numbers them. One user question gives:
 *   1 You → Host (POST /agent)   2 Host ⇄ MCP (tools/list)   3 Host → Model   4 Model → Host
 *   5 Host ⇄ MCP (tools/call)    6 Host → Model              7 Model → Host   8 Host → You
 * An MCP exchange is one hop (its request and response share a number, as in the article); a model
 * exchange is two hops, because its request and its response are separate moments of the story (the
 * model "thinking" happens in between); the user's question is 1 and its answer comes last.
 */
import { hopNumbers } from "@hopscope/shared/trace/hop-numbers";
import type { ExchangeSummary, Tap } from "@hopscope/shared/trace/schemas";
import { isStdioExchange } from "@hopscope/shared/trace/stdio-ingest";

export type Lane = "you" | "host" | "model" | "mcp";
export const LANES: readonly Lane[] = ["you", "host", "model", "mcp"];

export type HopKind = "agent-request" | "agent-response" | "mcp" | "model-request" | "model-response";

export interface Arrow {
  exchangeId: number;
  direction: "request" | "response";
  from: Lane;
  to: Lane;
  /** Epoch ms when this arrow happened (request start; response end, or first byte while streaming). */
  at: number;
  /** True while the bytes of this arrow are still arriving. */
  inProgress: boolean;
}

export interface Hop {
  number: number;
  kind: HopKind;
  exchangeId: number;
  arrows: Arrow[];
  /** Epoch ms of the hop's first arrow. */
  at: number;
}

const FAR_LANE: Record<Tap, Lane> = { agent: "you", model: "model", mcp: "mcp" };

/** A line the server wrote on its own over stdio (a notification or request on stdout, stderr, its exit). */
function fromStdioServer(x: ExchangeSummary): boolean {
  return isStdioExchange(x) && x.url !== "stdin";
}

function requestArrow(x: ExchangeSummary): Arrow {
  const far = FAR_LANE[x.tap];
  const inward = x.tap === "agent" || fromStdioServer(x);
  const from = inward ? far : "host";
  const to = inward ? "host" : far;
  return {
    exchangeId: x.id,
    direction: "request",
    from,
    to,
    at: x.timings.start,
    inProgress: x.timings.requestEnd === null && x.state === "pending",
  };
}

function responseArrow(x: ExchangeSummary): Arrow | null {
  const at = x.timings.end ?? (x.state === "streaming" ? x.timings.firstByte : null);
  // Over stdio a message without an answer (a notification, a stderr line, the exit) is one arrow.
  if (at === null || (isStdioExchange(x) && x.chunkCount === 0)) return null;
  const req = requestArrow(x);
  return {
    exchangeId: x.id,
    direction: "response",
    from: req.to,
    to: req.from,
    at,
    inProgress: x.timings.end === null,
  };
}

function kindOf(x: ExchangeSummary, direction: Arrow["direction"]): HopKind {
  if (x.tap === "mcp") return "mcp";
  if (x.tap === "agent") return direction === "request" ? "agent-request" : "agent-response";
  return direction === "request" ? "model-request" : "model-response";
}

/**
 * The hops of one trace, ordered by number. Numbers come from the shared `hopNumbers` (so the
 * timeline and the terminal hop log agree); this adds the arrows the sequence view draws.
 */
export function numberHops(exchanges: readonly ExchangeSummary[]): Hop[] {
  const numbers = hopNumbers(exchanges);
  const byNumber = new Map<number, Hop>();
  for (const x of exchanges) {
    const n = numbers.get(x.id);
    if (!n) continue;
    const req = requestArrow(x);
    const res = responseArrow(x);
    if (n.response === undefined || x.tap === "mcp") {
      byNumber.set(n.request, {
        number: n.request,
        kind: kindOf(x, "request"),
        exchangeId: x.id,
        arrows: res ? [req, res] : [req],
        at: req.at,
      });
      continue;
    }
    byNumber.set(n.request, {
      number: n.request,
      kind: kindOf(x, "request"),
      exchangeId: x.id,
      arrows: [req],
      at: req.at,
    });
    // A model response that has not started yet still holds its number, so later hops keep theirs.
    if (res)
      byNumber.set(n.response, {
        number: n.response,
        kind: kindOf(x, "response"),
        exchangeId: x.id,
        arrows: [res],
        at: res.at,
      });
  }
  return [...byNumber.values()].sort((a, b) => a.number - b.number);
}

/** The hop that shows an exchange's given side (for MCP both sides are one hop). */
export function hopFor(hops: readonly Hop[], exchangeId: number, direction: Arrow["direction"]): Hop | undefined {
  return hops.find((h) => h.exchangeId === exchangeId && h.arrows.some((a) => a.direction === direction));
}
