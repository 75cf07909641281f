/**
 * Deferred tools: Claude Code (`ToolSearch`) and Qwen Code (`tool_search` + `tool_call`) may leave MCP tools out
 * of `tools` and only name them in a reminder ("The following MCP tools … are reachable through tool_search").
 * A model that reads the name there asks the search tool for it (`select:<name>`), reads the schema in the
 * result, and then calls the tool when the agent has since declared it (Claude Code). With a bridge tool
 * (Qwen Code's `tool_call`, `{name, arguments}`) it calls the bridge at once (see decide.ts for why).
 */
import type { OllamaMessage, OllamaTool } from "@hopscope/shared/ollama/schemas";
import type { Attempt } from "./conversation";
import type { Intent } from "./intent";
import { argumentsFor, type PlannedCall } from "./tool-args";
import { NOTES_TOOLS, notesKindOf } from "./tool-names";

const SEARCH = /^(?:ToolSearch|tool_search)$/;
const BRIDGE = "tool_call";

export const isSearch = (name: string): boolean => SEARCH.test(name);

export function searchTool(tools: OllamaTool[]): OllamaTool | undefined {
  return tools.find((t) => isSearch(t.function.name));
}

function bridgeTool(tools: OllamaTool[]): OllamaTool | undefined {
  return tools.find((t) => {
    const props = t.function.parameters?.properties ?? {};
    return t.function.name === BRIDGE && "name" in props && "arguments" in props;
  });
}

const NAME = new RegExp(`[A-Za-z0-9_.-]*?(?:__|_|\\.)(?:${NOTES_TOOLS.join("|")})\\b`, "g");

/** The notes tool for `kind` that the conversation names without declaring it (a notes server's first). */
export function deferredName(messages: OllamaMessage[], kind: Intent["kind"]): string | null {
  const found = new Set<string>();
  for (const m of messages) for (const n of m.content.match(NAME) ?? []) if (notesKindOf(n) === kind) found.add(n);
  const names = [...found];
  return names.find((n) => /notes/i.test(n)) ?? names[0] ?? null;
}

/** The search call: `select:<name>`, with any other required parameter at its default. */
export function searchCall(tool: OllamaTool, name: string): PlannedCall {
  const params = tool.function.parameters;
  const args: Record<string, unknown> = { query: `select:${name}` };
  for (const r of params?.required ?? []) {
    if (r === "query") continue;
    const p = (params?.properties?.[r] ?? {}) as { type?: unknown; default?: unknown };
    args[r] = p.default ?? (p.type === "number" || p.type === "integer" ? 5 : "");
  }
  return { name: tool.function.name, arguments: args };
}

/** The tool's declaration as the search result printed it (`{"name": …, "parameters": …}` JSON), if it is there. */
function declaredIn(results: string[], name: string): OllamaTool {
  for (const text of results) {
    for (const m of text.matchAll(/\{"(?:description|name)"[^\n]*\}/g)) {
      try {
        const d = JSON.parse(m[0]) as { name?: string; description?: string; parameters?: unknown };
        if (d.name === name) return { type: "function", function: d as OllamaTool["function"] };
      } catch {
        // Not a declaration: a model reads past it.
      }
    }
  }
  return { type: "function", function: { name } };
}

/** The call through the bridge tool (Qwen Code's `tool_call`), its arguments under the schema a search showed, if any. */
export function bridgeCall(
  intent: Intent,
  name: string,
  tools: OllamaTool[],
  results: string[] = [],
): PlannedCall | null {
  const bridge = bridgeTool(tools);
  if (!bridge) return null;
  return {
    name: bridge.function.name,
    arguments: { name, arguments: argumentsFor(intent, declaredIn(results, name)) },
  };
}

/** The call after a search that found `name`: the tool itself once the agent declares it (Claude Code). */
export function callAfterSearch(
  intent: Intent,
  name: string,
  tools: OllamaTool[],
  searches: Attempt[],
): PlannedCall | null {
  const declared = tools.find((t) => t.function.name === name);
  if (declared) return { name, arguments: argumentsFor(intent, declared) };
  return bridgeCall(
    intent,
    name,
    tools,
    searches.map((a) => a.result ?? ""),
  );
}
