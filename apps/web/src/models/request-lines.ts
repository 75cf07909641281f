/**
 * A run's lines in the timeline (shared/src/trace/run-lines.ts): what the mark on a model request's hop
 * says — "retry of hop 3", "side request: title generation" — and the sentence that says why, so the
 * learner's eye follows the main line and can still see what joined it beside.
 */
import type { RequestRole } from "@hopscope/shared/trace/run-lines";
import type { Hop } from "./hops";

export { requestRoles } from "@hopscope/shared/trace/run-lines";

/** `label`: the mark's words on the row; `heading`: the detail's; `why`: the rule, as a sentence. */
export type LineMark =
  | { kind: "retry"; label: string; heading: string; ofHop: number; why: string; side: boolean }
  | { kind: "side"; label: string; heading: string; why: string };

/** A side request, or a retry of one: beside the main line. */
export function isSideRole(role: RequestRole | undefined): boolean {
  return role?.role === "side" || (role?.role === "retry" && role.side !== undefined);
}

/** The mark a hop carries: on a model request's hop, or (dimmed, without words) on its answer's. */
export function lineMarkOf(hop: Hop, roles: ReadonlyMap<number, RequestRole>): LineMark | null {
  const role = roles.get(hop.exchangeId);
  if (!role || role.role === "main") return null;
  const why = sentence(role.reason);
  if (role.role === "side")
    return { kind: "side", label: `side request: ${role.purpose}`, heading: `Side request: ${role.purpose}.`, why };
  return {
    kind: "retry",
    label: `retry of hop ${role.ofHop}`,
    heading: `Retry of hop ${role.ofHop} (attempt ${role.attempt}).`,
    ofHop: role.ofHop,
    why: role.side ? `${why} A side request: ${role.side}.` : why,
    side: role.side !== undefined,
  };
}

/**
 * What the hop's detail says of its line: its mark's words, or — in a run that has a retry or a side request —
 * why a main-line request is on the main line. Nothing in a run that is all main line.
 */
export function lineNoteOf(
  hop: Hop,
  roles: ReadonlyMap<number, RequestRole>,
): LineMark | { kind: "main"; heading: string; why: string } | null {
  const role = roles.get(hop.exchangeId);
  if (role?.role !== "main") return lineMarkOf(hop, roles);
  const mixed = [...roles.values()].some((r) => r.role !== "main");
  return mixed
    ? { kind: "main", heading: "Main line.", why: sentence(role.reason.replace(/^the main line: /, "")) }
    : null;
}

/** The reason as a sentence: capitalised, with a full stop. */
function sentence(reason: string): string {
  const text = reason.charAt(0).toUpperCase() + reason.slice(1);
  return text.endsWith(".") ? text : `${text}.`;
}
