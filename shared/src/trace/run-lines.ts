/**
 * The lines of an agent's run (docs/recorder.md, "Trace grouping"): which of its model requests carry the
 * conversation on (the main line), which resend one (a retry), and which are side requests outside it (a
 * title, a topic, a memory subagent), each with the reason in words, read from the requests' lines
 * (request-line.ts):
 *
 * - a retry: the same body as an earlier request, or the same messages as one whose answer was refused,
 *   failed or cut. It is a retry of that attempt's first request, on that request's line.
 * - the main line is the system prompt of the request that offers the most tools; a request with that
 *   system prompt, or continuing a main-line request's messages with its tools, is on it.
 * - a side request: its own words name a side task and it offers fewer tools than the main line (or none), or
 *   it has its own system prompt and a history that does not continue the main line's, or other tools.
 *
 * Pure: from the exchange summaries alone, so the live timeline can mark a request the moment it starts.
 */
import { z } from "zod";
import { hopNumbers } from "./hop-numbers";
import type { ExchangeSummary, RequestLine } from "./schemas";

export const RequestRoleSchema = z.discriminatedUnion("role", [
  z.object({ role: z.literal("main"), reason: z.string() }),
  z.object({
    role: z.literal("retry"),
    /** The first attempt's exchange and request hop. */
    of: z.number().int(),
    ofHop: z.number().int(),
    /** 2 for the first retry. */
    attempt: z.number().int().min(2),
    /** The side task of the request it resends; absent when that is on the main line. */
    side: z.string().optional(),
    reason: z.string(),
  }),
  z.object({ role: z.literal("side"), purpose: z.string(), reason: z.string() }),
]);
export type RequestRole = z.infer<typeof RequestRoleSchema>;

type Roled = Pick<ExchangeSummary, "id" | "tap" | "state" | "status" | "timings" | "classification">;

interface Request {
  x: Roled;
  line: RequestLine;
  toolCount: number;
  hop: number;
}

/** The role of each model request of one trace that says its line, by exchange id. */
export function requestRoles(exchanges: readonly Roled[]): Map<number, RequestRole> {
  const hops = hopNumbers(exchanges);
  const requests: Request[] = [];
  for (const x of [...exchanges].sort((a, b) => a.timings.start - b.timings.start || a.id - b.id)) {
    const c = x.classification;
    if (c.kind !== "model.chat" || !c.line) continue;
    requests.push({ x, line: c.line, toolCount: c.toolCount, hop: hops.get(x.id)?.request ?? 0 });
  }
  const roles = new Map<number, RequestRole>();
  const first = new Map<number, Request>();
  const originals: Request[] = [];
  for (const [i, r] of requests.entries()) {
    const resent = resentOf(r, requests.slice(0, i));
    if (!resent) {
      originals.push(r);
      continue;
    }
    const root = first.get(resent.of.x.id) ?? resent.of;
    first.set(r.x.id, root);
    const before = roles.get(resent.of.x.id);
    const attempt = before?.role === "retry" ? before.attempt + 1 : 2;
    roles.set(r.x.id, {
      role: "retry",
      of: root.x.id,
      ofHop: root.hop,
      attempt,
      reason: resent.why,
    });
  }
  for (const [id, role] of lineRoles(originals)) roles.set(id, role);
  for (const [id, role] of roles) {
    const root = role.role === "retry" ? roles.get(role.of) : undefined;
    if (role.role === "retry" && root?.role === "side") roles.set(id, { ...role, side: root.purpose });
  }
  return roles;
}

/** The latest earlier request `r` sends again, and why it counts as one. */
function resentOf(r: Request, earlier: readonly Request[]): { of: Request; why: string } | undefined {
  for (let i = earlier.length - 1; i >= 0; i--) {
    const e = earlier[i] as Request;
    const failed = failureOf(e.x);
    if (failed && sameHistory(e.line, r.line))
      return { of: e, why: `the same messages as hop ${e.hop}, whose answer ${failed}` };
    if (e.line.body === r.line.body) return { of: e, why: `the same request as hop ${e.hop}, sent again` };
  }
  return undefined;
}

/** How a request's answer failed, in words; undefined when it did not (or has not yet). */
function failureOf(x: Roled): string | undefined {
  const c = x.classification;
  const refusal = c.kind === "model.chat" ? c.refusal : undefined;
  if (x.status !== null && x.status >= 400)
    return refusal ? `was refused (${x.status}: ${clip(refusal)})` : `was refused (${x.status})`;
  if (x.state === "error") return "failed";
  if (x.state === "aborted") return "was cut";
  return undefined;
}

function sameHistory(a: RequestLine, b: RequestLine): boolean {
  return a.turnCount === b.turnCount && a.history === b.history;
}

/** `longer` holds all of `shorter`'s messages first, and more. */
function continues(longer: RequestLine, shorter: RequestLine): boolean {
  if (longer.turnCount <= shorter.turnCount || shorter.turnCount > shorter.turns.length) return false;
  return shorter.turns.every((t, i) => longer.turns[i] === t);
}

/** Main line or side request, for requests that resend none. */
function lineRoles(originals: readonly Request[]): Map<number, RequestRole> {
  const roles = new Map<number, RequestRole>();
  const mostTools = originals.reduce((n, r) => Math.max(n, r.toolCount), 0);
  const named = (r: Request) => r.line.purpose !== undefined && (r.toolCount === 0 || r.toolCount < mostTools);
  const anchor = originals
    .filter((r) => !named(r))
    .reduce<Request | undefined>((a, r) => (!a || r.toolCount > a.toolCount ? r : a), undefined);
  const main: Request[] = [];
  for (const r of originals) {
    const purpose = r.line.purpose ?? "side request";
    if (named(r)) {
      roles.set(r.x.id, {
        role: "side",
        purpose,
        reason: `${sideWords(r, anchor)}; its own words ask for ${purpose}`,
      });
      continue;
    }
    const onLine = anchor && mainReason(r, anchor, main);
    if (!anchor || onLine) {
      main.push(r);
      roles.set(r.x.id, { role: "main", reason: onLine || "the run's only conversation" });
    } else roles.set(r.x.id, { role: "side", purpose, reason: sideWords(r, anchor) });
  }
  return roles;
}

/** Why `r` is on the main line anchored by `anchor`; "" when it is not. */
function mainReason(r: Request, anchor: Request, main: readonly Request[]): string {
  const sameSystem = r.line.system === anchor.line.system;
  const carried = [...main]
    .reverse()
    .find((m) => continues(r.line, m.line) && (sameSystem || m.line.tools === r.line.tools));
  if (carried)
    return `the main line: continues hop ${carried.hop}'s conversation${sameSystem ? "" : " with the same tools"}`;
  if (r === anchor) return `the main line: the request that offers the most tools (${r.toolCount})`;
  return sameSystem
    ? `the main line: the system prompt of hop ${anchor.hop}, which offers the most tools (${anchor.toolCount})`
    : "";
}

/** How a side request differs from the main line, in words. */
function sideWords(r: Request, anchor: Request | undefined): string {
  const own = r.line.head ? `its own system prompt ("${r.line.head}")` : "its own system prompt";
  if (!anchor) return own;
  const parts = [r.line.system === anchor.line.system ? "the main line's system prompt" : own];
  parts.push(
    r.toolCount === 0
      ? "no tools"
      : r.line.tools === anchor.line.tools
        ? "the main line's tools"
        : `other tools (${r.toolCount}, the main line offers ${anchor.toolCount})`,
  );
  if (!continues(r.line, anchor.line) && !sameHistory(r.line, anchor.line))
    parts.push(`a history that does not continue hop ${anchor.hop}'s`);
  return `beside the main line (hop ${anchor.hop}): ${parts.join(", ")}`;
}

function clip(text: string, max = 80): string {
  const one = text.replace(/\s+/g, " ").trim();
  return one.length <= max ? one : `${one.slice(0, max - 1)}…`;
}
