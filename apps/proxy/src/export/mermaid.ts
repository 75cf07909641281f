/**
 * A trace as a Mermaid `sequenceDiagram` (pastes into GitHub markdown, mermaid.live, docs): the four
 * parties of the article's Part 4, one arrow per request and per response in time order, numbered as
 * the article numbers its hops (@hopscope/shared/trace/hop-numbers: an MCP round trip is one hop, a
 * model call two). Requests are solid arrows, responses dashed, failures end in a cross (`--x`).
 *
 * Labels come from recorded, untrusted bytes, so every label is flattened to one line, shortened and
 * escaped with Mermaid's entity codes (`#59;` for `;`, `#35;` for `#`, …): nothing in a body can end
 * the arrow, start a new statement or inject markup.
 */
import type { TraceBundle } from "@hopscope/shared/trace/bundle";
import { hopNumbers } from "@hopscope/shared/trace/hop-numbers";
import type { Exchange, Tap } from "@hopscope/shared/trace/schemas";
import { bodyJson } from "./body-text";
import { failureOf } from "./exchange-failure";

const PARTICIPANTS = [
  ["You", "You"],
  ["Host", "Host"],
  ["Model", "Model server"],
  ["MCP", "MCP server"],
] as const;
type Party = (typeof PARTICIPANTS)[number][0];

const ENDS: Record<Tap, [client: Party, server: Party]> = { agent: ["You", "Host"], model: ["Host", "Model"], mcp: ["Host", "MCP"] };

const MAX_LABEL = 60;
const ENTITIES: Record<string, string> = { "#": "#35;", ";": "#59;", "<": "#lt;", ">": "#gt;", "&": "#amp;", '"': "#quot;" };

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
      switch (c.outcome) {
        case "tool-error":
          return `isError: ${c.resultText ?? "tool error"}`;
        case "protocol-error":
          return `error ${c.errorCode ?? ""}: ${c.errorMessage ?? "JSON-RPC error"}`;
        case "notification":
          return `${ex.status} (notification)`;
        case "ok": {
          if (c.method === "tools/list") {
            const n = toolCount(ex);
            if (n !== undefined) return plural(n, "tool");
          }
          return c.resultText !== undefined ? `result: ${c.resultText}` : String(ex.status);
        }
        default:
          return String(ex.status);
      }
    case "model.other":
    case "other":
      return String(ex.status);
  }
}

interface Arrow {
  at: number;
  seq: number;
  response: boolean;
  line: string;
}

/** The trace as Mermaid source, starting `sequenceDiagram`. */
export function exportMermaid(bundle: TraceBundle): string {
  const numbers = hopNumbers(bundle.exchanges);
  const arrows: Arrow[] = [];
  for (const ex of bundle.exchanges) {
    const [client, server] = ENDS[ex.tap];
    const n = numbers.get(ex.id);
    const numbered = (num: number | undefined, label: string) => mermaidLabel(num === undefined ? label : `${num}. ${label}`);
    arrows.push({ at: ex.timings.start, seq: ex.seq, response: false, line: `${client}->>${server}: ${numbered(n?.request, requestLabel(ex))}` });
    const end = ex.timings.end ?? (ex.state === "pending" || ex.state === "streaming" ? null : ex.timings.start);
    if (end === null) continue;
    const arrow = failureOf(ex) ? "--x" : "-->>";
    arrows.push({ at: end, seq: ex.seq, response: true, line: `${server}${arrow}${client}: ${numbered(n?.response, responseLabel(ex))}` });
  }
  // Time order; at equal times an exchange's request precedes its own response, and a response that
  // ends as another request starts is drawn first.
  arrows.sort((a, b) => a.at - b.at || (a.seq === b.seq ? Number(a.response) - Number(b.response) : Number(b.response) - Number(a.response)) || a.seq - b.seq);
  const lines = [
    "sequenceDiagram",
    ...PARTICIPANTS.map(([id, name]) => (id === name ? `  participant ${id}` : `  participant ${id} as ${name}`)),
    ...arrows.map((a) => `  ${a.line}`),
  ];
  return `${lines.join("\n")}\n`;
}
