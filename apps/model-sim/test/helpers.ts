/**
 * Shared by model-sim's tests: a real server on port 0 (no token delay, no load time unless asked) and
 * the article's five notes tools as a host declares them (the MCP tools mapped to Ollama's shape).
 */
import type { OllamaMessage, OllamaTool } from "@hopscope/shared/ollama/schemas";
import { defaultConfig, type Config } from "../src/sim/config";
import { start, type RunningServer, type StartDeps } from "../src/server";

export async function startSim(overrides: Partial<Config> = {}, deps: StartDeps = {}): Promise<RunningServer> {
  return start({ ...defaultConfig(), port: 0, host: "127.0.0.1", tokensPerSecond: 0, loadMs: 0, ...overrides }, deps);
}

const textParam = (description: string) => ({ type: "string", description });

function tool(name: string, description: string, properties: Record<string, unknown>, required: string[]): OllamaTool {
  return {
    type: "function",
    function: {
      name,
      description,
      parameters: { type: "object", properties: properties as never, required, additionalProperties: false } as never,
    },
  };
}

/** The notes server's tools (article Part 3), as the host declares them to the model. */
export const NOTES_TOOLS: OllamaTool[] = [
  tool("read", "Read the whole notes file", {}, []),
  tool("write", "Write all contents to file", { content: textParam("Content that replaces the file") }, ["content"]),
  tool("append", "Append content to the end of the file", { content: textParam("Content that gets appended") }, [
    "content",
  ]),
  tool(
    "update",
    "Find and replace text in the file",
    { search: textParam("Text to find"), replace: textParam("Replacement text") },
    ["search", "replace"],
  ),
  tool("clear", "Empty the file", {}, []),
];

export const user = (content: string): OllamaMessage => ({ role: "user", content });
export const toolResult = (name: string, content: string): OllamaMessage => ({
  role: "tool",
  content,
  tool_name: name,
});
export const assistantCall = (name: string, args: Record<string, unknown>): OllamaMessage => ({
  role: "assistant",
  content: "",
  tool_calls: [{ function: { name, arguments: args } }],
});

/** POST JSON and return status, headers and the raw body text. */
export async function post(
  url: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Headers; text: string }> {
  const res = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
  return { status: res.status, headers: res.headers, text: await res.text() };
}
