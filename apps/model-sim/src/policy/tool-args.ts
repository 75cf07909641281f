/**
 * Fitting an intent to the tools the host declared: which tool (under the name the host gave it, see
 * ./tool-names.ts), and which of its declared parameter names carry the text. A real model reads the JSON
 * Schema in its prompt; the stand-in reads the same schema, so a host whose `append` takes `text` instead of
 * `content` still gets a valid call.
 */
import type { OllamaTool } from "@hopscope/shared/ollama/schemas";
import type { Intent } from "./intent";
import { findNotesTool } from "./tool-names";

export interface PlannedCall {
  name: string;
  arguments: Record<string, unknown>;
}

function paramNames(tool: OllamaTool): { all: string[]; required: string[] } {
  const props = tool.function.parameters?.properties ?? {};
  return { all: Object.keys(props), required: tool.function.parameters?.required ?? [] };
}

function pick(tool: OllamaTool, hint: RegExp, position: number, fallback: string): string {
  const { all, required } = paramNames(tool);
  return all.find((n) => hint.test(n)) ?? required[position] ?? all[position] ?? fallback;
}

/** The correct call for an intent, or null if the intent needs no tool or its tool is not declared. */
export function callFor(intent: Intent, tools: OllamaTool[]): PlannedCall | null {
  if (intent.kind === "none") return null;
  const tool = findNotesTool(tools, intent.kind);
  if (!tool) return null;
  return { name: tool.function.name, arguments: argumentsFor(intent, tool) };
}

/** Arguments for `tool` carrying the intent's text, under the tool's own parameter names. */
export function argumentsFor(intent: Intent, tool: OllamaTool): Record<string, unknown> {
  switch (intent.kind) {
    case "append":
    case "write":
      return { [pick(tool, /^(content|text|note|line|value|data)$/i, 0, "content")]: intent.content };
    case "update":
      return {
        [pick(tool, /^(search|find|old|from|target|pattern|query)/i, 0, "search")]: intent.search,
        [pick(tool, /^(replace|new|to|with|replacement|value)/i, 1, "replace")]: intent.replace,
      };
    case "read":
    case "clear":
    case "none":
      return {};
  }
}
