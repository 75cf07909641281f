/**
 * A trace as a Mermaid `sequenceDiagram` (pastes into GitHub markdown, mermaid.live, docs): the four
 * parties of the article's Part 4, one arrow per request and per response in time order, numbered as
 * the article numbers its hops (@hopscope/shared/trace/hop-numbers: an MCP round trip is one hop, a
 * model call two). Requests are solid arrows, responses dashed, failures end in a cross (`--x`).
 *
 * The notes file, when the trace changed it, is a fifth participant named after the file (`data/db`):
 * each change is a `Note over` it ("1 note added — by tools/call append"), drawn during the call that
 * caused it (between its request and its response), or at its time when no call of the trace did.
 *
 * Labels come from recorded, untrusted bytes, so every label is flattened to one line, shortened and
 * escaped with Mermaid's entity codes (`#59;` for `;`, `#35;` for `#`, …): nothing in a body can end
 * the arrow, start a new statement or inject markup.
 */
import type { TraceBundle } from "@hopscope/shared/trace/bundle";
import { hopNumbers } from "@hopscope/shared/trace/hop-numbers";
import { notesCauseText, notesHeadline } from "@hopscope/shared/trace/notes-headline";
import type { Classification, Exchange, NotesChange, Tap } from "@hopscope/shared/trace/schemas";
import { bodyJson } from "./body-text";
import { failureOf } from "./exchange-failure";
import { appendAll } from "@hopscope/shared/json/extent";

const PARTICIPANTS = [
  ["You", "You"],
  ["Host", "Host"],
  ["Model", "Model server"],
  ["MCP", "MCP server"],
] as const;
type Party = (typeof PARTICIPANTS)[number][0];

const ENDS: Record<Tap, [client: Party, server: Party]> = {
  agent: ["You", "Host"],
  model: ["Host", "Model"],
  mcp: ["Host", "MCP"],
};

const MAX_LABEL = 60;
const ENTITIES: Record<string, string> = {
  "#": "#35;",
  ";": "#59;",
  "<": "#lt;",
  ">": "#gt;",
  "&": "#amp;",
  '"': "#quot;",
};

/** One line, at most MAX_LABEL characters, with every character Mermaid could read as syntax escaped. */
export function mermaidLabel(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  const short = flat.length > MAX_LABEL ? `${flat.slice(0, MAX_LABEL - 1)}…` : flat;
  return short.replace(/[#;<>&"]/g, (c) => ENTITIES[c] ?? c);
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;
const pathOf = (url: string) => url.split("?")[0] ?? url;

function requestLabel(ex: Exchange): string {
  const c = ex.classification;
  switch (c.kind) {
    case "agent":
      return c.message ? `${ex.method} ${pathOf(ex.url)}: ${c.message}` : `${ex.method} ${pathOf(ex.url)}`;
    case "model.chat": {
      const parts = [plural(c.messageCount, "msg"), ...(c.toolCount > 0 ? [plural(c.toolCount, "tool")] : [])];
      return `${ex.method} ${pathOf(ex.url)} (${parts.join(", ")})`;
    }
    case "mcp":
      if (!c.method) return `${ex.method} ${pathOf(ex.url)}`;
      return c.method === "tools/call" && c.toolName ? `tools/call ${c.toolName}` : c.method;
    case "model.other":
    case "other":
      return `${ex.method} ${pathOf(ex.url)}`;
  }
}

function toolCount(ex: Exchange): number | undefined {
  const json = bodyJson(ex.responseBody) as { result?: { tools?: unknown } } | undefined;
  return Array.isArray(json?.result?.tools) ? json.result.tools.length : undefined;
}

/** An MCP answer by its outcome: the tool's error, the JSON-RPC error, the tool count of a list, the result. */
function mcpResponseLabel(ex: Exchange, c: Extract<Classification, { kind: "mcp" }>, status: number): string {
  switch (c.outcome) {
    case "tool-error":
      return `isError: ${c.resultText ?? "tool error"}`;
    case "protocol-error":
      return `error ${c.errorCode ?? ""}: ${c.errorMessage ?? "JSON-RPC error"}`;
    case "notification":
      return `${status} (notification)`;
    case "ok": {
      if (c.method === "tools/list") {
        const n = toolCount(ex);
        if (n !== undefined) return plural(n, "tool");
      }
      return c.resultText !== undefined ? `result: ${c.resultText}` : String(status);
    }
    default:
      return String(status);
  }
}

function responseLabel(ex: Exchange): string {
  const c = ex.classification;
  if (ex.state === "aborted") return `aborted: ${ex.error ?? "the client hung up"}`;
  if (ex.status === null) return `error: ${ex.error ?? "no response"}`;
  if (ex.state === "error" || ex.status >= 400) return `${ex.status}: ${ex.error ?? "HTTP error"}`;
  switch (c.kind) {
    case "agent":
      return c.reply ? `reply: ${c.reply}` : String(ex.status);
    case "model.chat":
      if (c.toolCalls.length > 0) {
        return `tool_calls: ${c.toolCalls.map((tc) => `${tc.name}{${Object.keys(tc.arguments).join(",")}}`).join(", ")}`;
      }
      return c.content ? `content: ${c.content}` : String(ex.status);
    case "mcp":
      return mcpResponseLabel(ex, c, ex.status);
    case "model.other":
    case "other":
      return String(ex.status);
  }
}

/** Within one exchange: its request, then what happened to the notes file during it, then its response. */
const PHASE = { request: 0, note: 1, response: 2 } as const;

interface Arrow {
  at: number;
  seq: number;
  phase: (typeof PHASE)[keyof typeof PHASE];
  line: string;
}

/** A change as a note over the file's participant, placed inside the call that caused it. */
function noteOf(c: NotesChange, bundle: TraceBundle): Arrow {
  const { headline, destructive } = notesHeadline(c);
  const cause = c.cause;
  const call = cause.kind === "tool-call" ? bundle.exchanges.find((x) => x.id === cause.exchangeId) : undefined;
  const text = mermaidLabel(`${destructive ? "⚠ " : ""}${headline} — ${notesCauseText(c)}`);
  // The recorder may notice a change a moment after the call answered; it still happened during the call.
  const at = call ? Math.min(Math.max(c.at, call.timings.start), call.timings.end ?? c.at) : c.at;
  return { at, seq: call?.seq ?? Number.MAX_SAFE_INTEGER, phase: PHASE.note, line: `Note over Notes: ${text}` };
}

/** The trace as Mermaid source, starting `sequenceDiagram`. */
export function exportMermaid(bundle: TraceBundle): string {
  const numbers = hopNumbers(bundle.exchanges);
  const arrows: Arrow[] = [];
  for (const ex of bundle.exchanges) {
    const [client, server] = ENDS[ex.tap];
    const n = numbers.get(ex.id);
    const numbered = (num: number | undefined, label: string) =>
      mermaidLabel(num === undefined ? label : `${num}. ${label}`);
    arrows.push({
      at: ex.timings.start,
      seq: ex.seq,
      phase: PHASE.request,
      line: `${client}->>${server}: ${numbered(n?.request, requestLabel(ex))}`,
    });
    const end = ex.timings.end ?? (ex.state === "pending" || ex.state === "streaming" ? null : ex.timings.start);
    if (end === null) continue;
    const arrow = failureOf(ex) ? "--x" : "-->>";
    arrows.push({
      at: end,
      seq: ex.seq,
      phase: PHASE.response,
      line: `${server}${arrow}${client}: ${numbered(n?.response, responseLabel(ex))}`,
    });
  }
  const notes = bundle.notes ?? [];
  appendAll(
    arrows,
    notes.map((c) => noteOf(c, bundle)),
  );
  // Time order; at equal times an exchange's own request, notes and response keep that order, and
  // another exchange's response (then a note) is drawn before a request that starts as it ends.
  arrows.sort((a, b) => a.at - b.at || (a.seq === b.seq ? a.phase - b.phase : b.phase - a.phase) || a.seq - b.seq);
  const file = notes[0]?.file;
  const lines = [
    "sequenceDiagram",
    ...PARTICIPANTS.map(([id, name]) => (id === name ? `  participant ${id}` : `  participant ${id} as ${name}`)),
    ...(file === undefined ? [] : [`  participant Notes as ${mermaidLabel(file)}`]),
    ...arrows.map((a) => `  ${a.line}`),
  ];
  return `${lines.join("\n")}\n`;
}
