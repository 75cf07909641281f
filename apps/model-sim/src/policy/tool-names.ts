/**
 * Finding the notes tools under whatever names the host gave them. Agents namespace MCP tools: Claude Code
 * and Qwen Code declare `mcp__notes__append`, opencode `notes_append`, others `notes__append`, and Ollama
 * (openai/responses.go `convertTools`, from 0.32.7) expands a Responses `namespace` tool `mcp__notes` into
 * `mcp__notes.append`. A model reads the names in `<tools>` and copies the one it means, so the stand-in
 * matches a name by its last segment and calls it by the exact name declared.
 */
import type { OllamaTool } from "@hopscope/shared/ollama/schemas";

/** The five tools of the article's notes server, named after what they do. */
export const NOTES_TOOLS = ["read", "write", "append", "update", "clear"] as const;
export type NotesToolKind = (typeof NOTES_TOOLS)[number];

/** Longest first, so `mcp__notes__append` splits at `__`, not at its last `_`. */
const SEPARATORS = ["__", ".", "_", "/", "-"];

/** The name's server prefix when it names `kind` (`mcp__notes__` for `mcp__notes__append`, "" for `append`). */
function prefixFor(name: string, kind: string): string | null {
  if (name === kind) return "";
  for (const sep of SEPARATORS) {
    if (name.length > sep.length + kind.length && name.endsWith(sep + kind)) return name.slice(0, -kind.length);
  }
  return null;
}

/** The notes tool kind a declared name stands for, or null (`notes_append` → append; `Read` → null). */
export function notesKindOf(name: string): NotesToolKind | null {
  return NOTES_TOOLS.find((k) => prefixFor(name, k) !== null) ?? null;
}

/**
 * The prefix of the server that offers the most notes tools: opencode declares its own `read` and `write`
 * (files) next to `notes_read` … `notes_clear`, and the notes server is the one with all five. Ties go to a
 * prefix that says "notes", then to the bare names a plain host declares.
 */
export function notesPrefix(tools: OllamaTool[]): string | null {
  const counts = new Map<string, number>();
  for (const t of tools) {
    for (const k of NOTES_TOOLS) {
      const p = prefixFor(t.function.name, k);
      if (p !== null) counts.set(p, (counts.get(p) ?? 0) + 1);
    }
  }
  const score = (p: string, n: number) => n * 4 + (/notes/i.test(p) ? 2 : 0) + (p === "" ? 1 : 0);
  let best: string | null = null;
  let bestScore = -1;
  for (const [p, n] of counts) {
    if (score(p, n) > bestScore) [best, bestScore] = [p, score(p, n)];
  }
  return best;
}

/** The declared tool that does `kind`, from the notes server when several servers offer one. */
export function findNotesTool(tools: OllamaTool[], kind: NotesToolKind): OllamaTool | undefined {
  const prefix = notesPrefix(tools);
  return (
    tools.find((t) => prefix !== null && t.function.name === prefix + kind) ??
    tools.find((t) => prefixFor(t.function.name, kind) !== null)
  );
}

/**
 * Responses `namespace` tools that reached the model as one schema-less function: before 0.32.7 Ollama's
 * openai/responses.go `convertTool` kept the namespace's name and type and dropped its nested `tools`.
 */
export function emptyNamespaces(tools: OllamaTool[]): string[] {
  return tools.filter((t) => t.type === "namespace").map((t) => t.function.name);
}
