/**
 * The five notes tools: their definitions as `tools/list` shows them (descriptions written for a small
 * model) and how a `tools/call` runs them. Argument problems come back as tool results with
 * `isError: true` and a message saying how to fix the call; an unknown tool is the caller's protocol
 * error (-32602), raised by the dispatcher.
 */
import type { Tool } from "@hopscope/shared/mcp/tools";
import type { NotesStore } from "./notes-store";
import { NotesError, textProblem } from "./text-check";

const noArgs = { type: "object", properties: {}, additionalProperties: false } as const;

export const TOOLS: Tool[] = [
  {
    name: "read",
    description:
      "Read the whole notes file. Returns its full text (empty when there are no notes). Takes no arguments.",
    inputSchema: { ...noArgs },
    annotations: { readOnlyHint: true },
  },
  {
    name: "write",
    description:
      "REPLACE the whole notes file with `content`. Everything already in the file is deleted. To add a note, use append instead; use write only when the user asks to overwrite all notes.",
    inputSchema: {
      type: "object",
      properties: { content: { type: "string", description: "The complete new text of the notes file" } },
      required: ["content"],
      additionalProperties: false,
    },
    annotations: { destructiveHint: true },
  },
  {
    name: "append",
    description: "Add a note: appends `content` as a new line at the end of the notes file. Existing notes are kept.",
    inputSchema: {
      type: "object",
      properties: { content: { type: "string", description: 'The note to add, e.g. "call the dentist"' } },
      required: ["content"],
      additionalProperties: false,
    },
  },
  {
    name: "update",
    description:
      "Find and replace text in the notes file: every occurrence of `search` becomes `replace`. `search` must be text that is in the file exactly (read first if unsure).",
    inputSchema: {
      type: "object",
      properties: {
        search: { type: "string", description: "Exact text to find" },
        replace: { type: "string", description: "Text to put in its place (may be empty to delete it)" },
      },
      required: ["search", "replace"],
      additionalProperties: false,
    },
    annotations: { destructiveHint: true },
  },
  {
    name: "clear",
    description: "Delete every note: empties the notes file. Takes no arguments.",
    inputSchema: { ...noArgs },
    annotations: { destructiveHint: true, idempotentHint: true },
  },
];

export const TOOL_NAMES = new Set(TOOLS.map((t) => t.name));

export interface ToolOutcome {
  text: string;
  isError: boolean;
}

/** Run a known tool. Never throws for the model's mistakes; only I/O failures propagate. */
export async function runTool(store: NotesStore, name: string, args: Record<string, unknown>): Promise<ToolOutcome> {
  const tool = TOOLS.find((t) => t.name === name);
  if (!tool) throw new Error(`runTool called with unknown tool ${name}; the dispatcher must reject it first`);
  const problem = checkArgs(tool, args);
  if (problem) return { text: problem, isError: true };
  try {
    switch (name) {
      case "read":
        return { text: await store.read(), isError: false };
      case "write":
        await store.write(args.content as string);
        return { text: "Success", isError: false };
      case "append":
        await store.append(args.content as string);
        return { text: "Success", isError: false };
      case "update":
        await store.update(args.search as string, args.replace as string);
        return { text: "Success", isError: false };
      case "clear":
        await store.clear();
        return { text: "Success", isError: false };
      default:
        throw new Error(`tool ${name} is listed but has no implementation`);
    }
  } catch (err) {
    if (err instanceof NotesError) return { text: err.message, isError: true };
    throw err;
  }
}

/** Check `args` against the tool's strict inputSchema; the message tells the model how to retry. */
function checkArgs(tool: Tool, args: Record<string, unknown>): string | null {
  const props = tool.inputSchema.properties ?? {};
  const required = tool.inputSchema.required ?? [];
  const usage =
    required.length === 0
      ? `${tool.name} takes no arguments`
      : `${tool.name} takes ${required.map((r) => `(${r})`).join(" and ")}`;
  for (const key of Object.keys(args)) {
    if (!(key in props)) return `Unknown param (${key}): ${usage}. Retry without it.`;
  }
  for (const key of required) {
    const value = args[key];
    if (value === undefined || value === null) return `Param (${key}) is required: ${usage}.`;
    if (typeof value !== "string")
      return `Param (${key}) must be a string, got ${Array.isArray(value) ? "array" : typeof value}. Retry with text.`;
    const bad = textProblem(value);
    if (bad) return `Param (${key}) is refused: ${bad}. Only plain UTF-8 text can go into the notes file.`;
  }
  if (tool.name === "append" && (args.content as string).length === 0)
    return "Param (content) is empty: pass the note text to add.";
  if (tool.name === "update" && (args.search as string).length === 0)
    return "Param (search) is empty: pass the exact text to find (call read to see the file).";
  return null;
}
