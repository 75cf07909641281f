/**
 * Tools declared in the parser tests. The names follow Ollama's tools/tools_test.go, whose cases these
 * tests re-derive: say_hello is a prefix of say_hello_world, get_address shares "get_" with the others.
 */
import type { OllamaTool } from "@hopscope/shared/ollama/schemas";

function tool(name: string, properties: Record<string, { type: string }> = {}): OllamaTool {
  return { type: "function", function: { name, description: name, parameters: { type: "object", properties } } };
}

export const TOOLS: OllamaTool[] = [
  tool("get_temperature", { city: { type: "string" }, format: { type: "string" } }),
  tool("get_conditions", { location: { type: "string" } }),
  tool("say_hello"),
  tool("say_hello_world"),
  tool("get_address", { location: { type: "string" } }),
  tool("add", { a: { type: "string" }, b: { type: "string" } }),
  tool("append", { content: { type: "string" } }),
];

/** The article's raw model output for "Add buy milk to my notes". */
export const ARTICLE_RAW = '<tool_call>\n{"name": "append", "arguments": {"content": "buy milk"}}\n</tool_call>';
