/**
 * Follow the data: an index of every string value in a trace's bodies (and in the derived views —
 * the prompt the model saw, the text it wrote), so a value such as "buy milk" can be traced from the
 * user's message into the prompt, the tool call, the MCP request, the tool result and the reply.
 */
import type { NotesChange } from "@hopscope/shared/trace/notes-file";
import { bodyText, jsonValues } from "./body";

/** `notes`: the notes file (`data/db`) as a tools/call left it — the step between the MCP request and its result. */
export type FollowSide = "request" | "response" | "prompt" | "raw-output" | "notes";

/** One text to index: a body (JSON, NDJSON or SSE) or a derived view (plain text). */
export interface FollowDoc {
  exchangeId: number;
  side: FollowSide;
  text: string;
  /** Plain text is indexed as one value; otherwise the JSON values inside are walked. */
  plain?: boolean;
  /** For plain text built from a request (the rendered prompt): which field each range came from. */
  segments?: readonly { start: number; end: number; path?: string | undefined }[];
  /** For plain text: where it sits (a notes change's `/after` or `/before`). */
  path?: string;
}

export interface FollowEntry {
  exchangeId: number;
  side: FollowSide;
  /** JSON pointer of the value (prefixed by `/<n>` for the n-th NDJSON line or SSE event when there are several). */
  path: string;
  value: string;
  segments?: FollowDoc["segments"];
}

export interface Occurrence extends FollowEntry {
  /** For plain text with segments: the JSON pointer of the request field the matched text came from. */
  origin?: string;
  /** The value with the match in the middle, at most ~80 characters. */
  before: string;
  match: string;
  after: string;
}

function escapePointer(key: string): string {
  return key.replace(/~/g, "~0").replace(/\//g, "~1");
}

function walk(value: unknown, path: string, visit: (path: string, value: string) => void): void {
  if (typeof value === "string") visit(path, value);
  else if (typeof value === "number" || typeof value === "boolean") visit(path, String(value));
  else if (Array.isArray(value)) value.forEach((v, i) => walk(v, `${path}/${i}`, visit));
  else if (value && typeof value === "object") {
    for (const [k, v] of Object.entries(value)) walk(v, `${path}/${escapePointer(k)}`, visit);
  }
}

export function buildFollowIndex(docs: readonly FollowDoc[]): FollowEntry[] {
  const entries: FollowEntry[] = [];
  for (const doc of docs) {
    const push = (path: string, value: string) =>
      entries.push({ exchangeId: doc.exchangeId, side: doc.side, path, value });
    if (doc.plain) {
      entries.push({
        exchangeId: doc.exchangeId,
        side: doc.side,
        path: doc.path ?? "",
        value: doc.text,
        ...(doc.segments ? { segments: doc.segments } : {}),
      });
      continue;
    }
    const values = jsonValues(doc.text);
    if (values.length === 0 && doc.text) push("", doc.text);
    else if (values.length === 1) walk(values[0], "", push);
    else values.forEach((v, i) => walk(v, `/${i}`, push));
  }
  return entries;
}

/** Matches reported per value: a long text may repeat a value many times; a few show where it went. */
export const MAX_MATCHES_PER_VALUE = 5;

/** Every match of `needle` (case-insensitive), in index order, with a snippet around it. */
export function findOccurrences(entries: readonly FollowEntry[], needle: string): Occurrence[] {
  const q = needle.trim().toLowerCase();
  if (!q) return [];
  const out: Occurrence[] = [];
  for (const e of entries) {
    const lower = e.value.toLowerCase();
    let at = lower.indexOf(q);
    for (let n = 0; at >= 0 && n < MAX_MATCHES_PER_VALUE; n++, at = lower.indexOf(q, at + q.length)) {
      const from = Math.max(0, at - 30);
      const to = Math.min(e.value.length, at + q.length + 30);
      const { segments, ...entry } = e;
      const origin = segments?.find((sg) => sg.start <= at && at < sg.end)?.path;
      out.push({
        ...entry,
        ...(origin ? { origin } : {}),
        before: (from > 0 ? "…" : "") + e.value.slice(from, at),
        match: e.value.slice(at, at + q.length),
        after: e.value.slice(at + q.length, to) + (to < e.value.length ? "…" : ""),
      });
    }
  }
  return out;
}

/** Within one hop, the order the data travels: the JSON sent, the prompt it became, the text written, the answer. */
const SIDE_RANK: Record<FollowSide, number> = { request: 0, prompt: 1, "raw-output": 2, notes: 3, response: 4 };

/**
 * The notes file as each tools/call changed it, placed on that call's exchange: the text after (the value
 * written) and before (a value the call removed). Changes with no tool call did not carry the data.
 */
export function notesFollowDocs(changes: readonly NotesChange[]): FollowDoc[] {
  const docs: FollowDoc[] = [];
  for (const c of changes) {
    if (c.cause.kind !== "tool-call") continue;
    const { exchangeId } = c.cause;
    if (c.after) docs.push({ exchangeId, side: "notes", text: bodyText(c.after), plain: true, path: "/after" });
    if (c.before) docs.push({ exchangeId, side: "notes", text: bodyText(c.before), plain: true, path: "/before" });
  }
  return docs;
}

/** A value still in the file after a change was not removed by it: its match in the before-text is not a step. */
function keptInFile<T extends Occurrence>(found: readonly T[]): T[] {
  const after = new Set(found.filter((o) => o.side === "notes" && o.path === "/after").map((o) => o.exchangeId));
  return found.filter((o) => !(o.side === "notes" && o.path === "/before" && after.has(o.exchangeId)));
}

/**
 * A match inside a tool definition (the request's `tools`, the prompt's `<tools>` block, a tools/list
 * answer): the value is in the tools' wording, so it did not travel there from the user's message.
 */
export function inToolDefinition(o: Pick<Occurrence, "side" | "path" | "origin">): boolean {
  if (o.side === "prompt") return (o.origin ?? "").startsWith("/tools/");
  return /^(\/\d+)?\/tools\//.test(o.path) || /(^|\/)result\/tools\//.test(o.path);
}

/**
 * Occurrences along the data's path — the user's message, the prompt, the model's tool call, the MCP request,
 * the notes file, the tool result, the next prompt, the reply — with the ones inside tool definitions set apart.
 */
export function alongThePath<T extends Occurrence & { hop: number }>(
  found: readonly T[],
): { path: T[]; toolDefinitions: T[] } {
  const sorted = keptInFile(found).sort((a, b) => a.hop - b.hop || SIDE_RANK[a.side] - SIDE_RANK[b.side]);
  return {
    path: sorted.filter((o) => !inToolDefinition(o)),
    toolDefinitions: sorted.filter((o) => inToolDefinition(o)),
  };
}
