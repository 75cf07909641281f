/**
 * The agent loop of the article's Part 5: ask the MCP server for its tools, then alternate model and
 * tools until the model answers without tool calls or the step guard stops it. The model never touches
 * a tool: it asks, the host runs the call on the MCP server and pastes the result into the history.
 */
import type { AgentToolCall } from "@hopscope/shared/agent/schemas";
import type { OllamaMessage, OllamaTool } from "@hopscope/shared/ollama/schemas";
import { HostError, mcpFailed, stepGuardReached } from "./errors";
import { McpProtocolError, type McpClient } from "./mcp-client";
import type { CallToolResult } from "@hopscope/shared/mcp/tools";
import { mcpToolToOllama } from "./mcp-to-ollama-tools";
import type { ModelClient } from "./ollama-client";
import { childTraceparent, type RequestTrace as TraceContext } from "@hopscope/nodekit/trace-ids";

export interface AgentLoopDeps {
  /** The model client of the host's dialect (AGENT_DIALECT); a question may ask for another (see routes/agent.ts). */
  ollama: ModelClient;
  mcp: McpClient;
  maxSteps: number;
  /** Tools offered to the model that the MCP server does not have (the `unknown-tool` lesson; see stale-tools.ts). */
  staleTools?: OllamaTool[];
}

export interface AgentTurnResult {
  reply: string;
  /** `/api/chat` calls made for this message. */
  steps: number;
  toolCalls: AgentToolCall[];
}

/**
 * Run one user message against `history`, which is extended in place (user message, each assistant
 * message with its tool_calls, each tool result). Throws HostError; when tools already ran, its
 * `progress` lists them (the route adds the conversation id).
 */
export async function runAgentTurn(
  deps: AgentLoopDeps,
  history: OllamaMessage[],
  message: string,
  trace: TraceContext,
): Promise<AgentTurnResult> {
  const tools = [...(await listOllamaTools(deps.mcp, trace)), ...(deps.staleTools ?? [])];
  history.push({ role: "user", content: message });
  const toolCalls: AgentToolCall[] = [];
  let steps = 0;
  try {
    for (steps = 1; steps <= deps.maxSteps; steps++) {
      const reply = await deps.ollama.chat(history, tools, childTraceparent(trace));
      // The model's own tool call must stay in history, or the tool result that follows makes no sense to it.
      history.push(reply);
      if (!reply.tool_calls || reply.tool_calls.length === 0) {
        return { reply: reply.content, steps, toolCalls };
      }
      for (const call of reply.tool_calls) {
        const { name, arguments: args } = call.function;
        const { output, isError } = await invoke(deps.mcp, name, args, trace);
        toolCalls.push({ name, arguments: args, output, isError });
        history.push({ role: "tool", content: output, tool_name: name });
      }
    }
    throw stepGuardReached(deps.maxSteps);
  } catch (err) {
    if (err instanceof HostError) {
      err.progress = { steps: Math.min(steps, deps.maxSteps), toolCalls };
    }
    throw err;
  }
}

async function listOllamaTools(mcp: McpClient, trace: TraceContext): Promise<OllamaTool[]> {
  let listed;
  try {
    listed = await mcp.listTools(childTraceparent(trace));
  } catch (err) {
    if (err instanceof McpProtocolError) throw mcpFailed(mcp.url, `tools/list was refused: ${err.message}`, err);
    throw err;
  }
  try {
    return listed.map(mcpToolToOllama);
  } catch (err) {
    throw mcpFailed(mcp.url, (err as Error).message, err);
  }
}

/**
 * Run one call. Tool errors (`isError`) and protocol errors (e.g. unknown tool) both go back to the
 * model as text, so it can correct itself; only a server that cannot be reached or read stops the loop.
 */
async function invoke(
  mcp: McpClient,
  name: string,
  args: Record<string, unknown>,
  trace: TraceContext,
): Promise<{ output: string; isError: boolean }> {
  try {
    const result = await mcp.callTool(name, args, childTraceparent(trace));
    return { output: toolResultForModel(result), isError: result.isError ?? false };
  } catch (err) {
    if (err instanceof McpProtocolError) return { output: `Error: ${err.message}`, isError: true };
    throw err;
  }
}

/** The text the model sees: text blocks joined; other blocks named; structured content as JSON if alone. */
export function toolResultForModel(result: CallToolResult): string {
  const parts = result.content.map((block) => {
    switch (block.type) {
      case "text":
        return block.text;
      case "image":
      case "audio":
        return `[${block.type} ${block.mimeType}]`;
      case "resource_link":
        return `[resource_link ${block.uri}]`;
      case "resource":
        return block.resource.text ?? `[resource ${block.resource.uri}]`;
    }
  });
  if (parts.length === 0 && result.structuredContent !== undefined) return JSON.stringify(result.structuredContent);
  return parts.join("\n");
}
