/**
 * The article's "single map()": MCP's `inputSchema` and Ollama's `parameters` are both JSON Schema, so an
 * MCP tool becomes an Ollama tool by renaming one field. The schema is passed on as the server wrote it
 * (Ollama keeps only the keys its structs know when it renders the prompt; see @hopscope/shared/prompt).
 */
import { ToolParametersSchema, type OllamaTool, type ToolParameters } from "@hopscope/shared/ollama/schemas";
import type { Tool } from "@hopscope/shared/mcp/tools";
import { formatZodIssues } from "@hopscope/shared/json/zod-error";

/** Throws when an inputSchema cannot be Ollama `parameters` (e.g. `properties` that are not objects). */
export function mcpToolToOllama(tool: Tool): OllamaTool {
  const parsed = ToolParametersSchema.safeParse(tool.inputSchema);
  if (!parsed.success) {
    const issues = formatZodIssues(parsed.error, { whole: "inputSchema" });
    throw new Error(`tool "${tool.name}" has an inputSchema Ollama cannot take as parameters (${issues})`);
  }
  return {
    type: "function",
    function: {
      name: tool.name,
      ...(tool.description !== undefined && { description: tool.description }),
      // The server's object itself, not zod's output: parsing would reorder keys, and the recorded request
      // should show the schema exactly as tools/list returned it.
      parameters: tool.inputSchema as ToolParameters,
    },
  };
}
