/**
 * The `unknown-tool` workshop lesson, on the host's side. A model behind Ollama can only call tools it was
 * offered (Ollama's parser drops any other name), so an MCP "Unknown tool" protocol error happens when a host
 * offers the model a tool its MCP server does not have — typically a tool list cached past its `ttlMs` after the
 * server dropped a tool. With this lesson the host plays that stale host: it offers `add_note` from "an older
 * version of the server" next to the real tools, the model calls it, and the MCP server answers -32602.
 */
import type { OllamaTool } from "@hopscope/shared/ollama/schemas";

export const STALE_ADD_NOTE: OllamaTool = {
  type: "function",
  function: {
    name: "add_note",
    description: "Add a note to the notes file.",
    parameters: {
      type: "object",
      properties: { note: { type: "string", description: "The note to add" } },
      required: ["note"],
      additionalProperties: false,
    },
  },
};

/** Tools the host offers besides those tools/list returned: only the stale one, and only in that lesson. */
export function staleToolsFor(lesson: string | null): OllamaTool[] {
  return lesson === "unknown-tool" ? [STALE_ADD_NOTE] : [];
}
