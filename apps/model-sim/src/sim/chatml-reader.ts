/**
 * Reading a rendered qwen2.5 prompt back into messages and tools, for `/api/generate` with `raw: true`.
 * The reference's verification recipe replays a rendered prompt that way and expects the same output
 * as `/api/chat`; reading the prompt back lets the stand-in "continue" it with the same decision.
 * Understands both tool serialisations (≤0.13.5 JSON, ≥0.14 Go struct dump).
 */
import type { OllamaMessage, OllamaTool } from "@hopscope/shared/ollama/schemas";
import { chatmlTurns } from "@hopscope/shared/prompt/chatml";

export interface ChatPrompt {
  messages: OllamaMessage[];
  tools: OllamaTool[];
}

const TOOL_LINE = /^\{"type": "function", "function": (.*)\}$/;
// ≥0.14: {NAME DESCRIPTION {object <nil> <nil> [req1 req2] {"prop":{…}}}}
const STRUCT_DUMP = /^\{(\S+) .*\{object \S+ \S+ \[([^\]]*)\] (\{.*\})\}\}$/;

function readTool(line: string): OllamaTool | null {
  const inner = TOOL_LINE.exec(line)?.[1];
  if (inner === undefined) return null;
  try {
    const fn = JSON.parse(inner) as OllamaTool["function"];
    if (typeof fn.name === "string") return { type: "function", function: fn };
  } catch {
    // Not JSON: the struct dump of Ollama ≥0.14, read below.
  }
  const dump = STRUCT_DUMP.exec(inner);
  if (!dump) return null;
  let properties: Record<string, Record<string, unknown>> = {};
  try {
    properties = JSON.parse(dump[3]!) as typeof properties;
  } catch {
    properties = {};
  }
  const required = dump[2]!.split(" ").filter(Boolean);
  return { type: "function", function: { name: dump[1]!, parameters: { type: "object", required, properties } } };
}

function readCalls(body: string): OllamaMessage["tool_calls"] {
  const calls: NonNullable<OllamaMessage["tool_calls"]> = [];
  for (const line of body.split("\n")) {
    const m = /^\{"name": "([^"]*)", "arguments": (.*)\}$/.exec(line.trim());
    if (!m) continue;
    try {
      calls.push({ function: { name: m[1]!, arguments: JSON.parse(m[2]!) as Record<string, unknown> } });
    } catch {
      calls.push({ function: { name: m[1]!, arguments: {} } });
    }
  }
  return calls;
}

/** Null when the text is not a ChatML prompt ending with an open assistant turn. */
export function readChatPrompt(prompt: string): ChatPrompt | null {
  if (!prompt.startsWith("<|im_start|>") || !prompt.endsWith("<|im_start|>assistant\n")) return null;
  const messages: OllamaMessage[] = [];
  let tools: OllamaTool[] = [];
  // The last turn is the open assistant turn the prompt asks the model to write.
  for (const { role, content: body } of chatmlTurns(prompt).slice(0, -1)) {
    if (role === "system") {
      const toolsAt = body.indexOf("\n\n# Tools\n");
      const listed = /<tools>\n([\s\S]*?)\n<\/tools>/.exec(body)?.[1] ?? "";
      tools = listed
        .split("\n")
        .map(readTool)
        .filter((t): t is OllamaTool => t !== null);
      messages.push({ role: "system", content: toolsAt === -1 ? body : body.slice(0, toolsAt) });
    } else if (role === "user" && body.startsWith("<tool_response>\n") && body.endsWith("\n</tool_response>")) {
      messages.push({ role: "tool", content: body.slice("<tool_response>\n".length, -"\n</tool_response>".length) });
    } else if (role === "assistant" && body.startsWith("<tool_call>\n")) {
      messages.push({ role: "assistant", content: "", tool_calls: readCalls(body) });
    } else {
      messages.push({ role, content: body });
    }
  }
  return { messages, tools };
}
