/**
 * Plain-language captions, one per kind of hop, written for learners who have not read the article.
 * They carry its lessons: the model never touches the file; the host decides and acts; memory is a
 * list the host resends; tool calling is just text.
 */
import type { ExchangeSummary } from "@hopscope/shared/trace/schemas";
import type { Hop } from "./hops";

export interface Caption {
  title: string;
  text: string;
}

function modelRequestCaption(x: ExchangeSummary, isFirstModelRequest: boolean): Caption {
  const c = x.classification;
  const n = c.kind === "model.chat" ? c.messageCount : undefined;
  const t = c.kind === "model.chat" ? c.toolCount : undefined;
  if (isFirstModelRequest) {
    return {
      title: "The host asks the model",
      text: `The host sends the conversation${n !== undefined ? ` (${n} message${n === 1 ? "" : "s"})` : ""}${t ? ` and ${t} tool descriptions` : ""} as JSON. The model server turns it all into one long text — the prompt — and the model only ever sees that text. Tools are just text in the prompt.`,
    };
  }
  return {
    title: "The host asks again, resending everything",
    text: "The model remembers nothing between calls. Its \"memory\" is a list the host keeps and resends in full: the question, the model's tool call and the tool's result. See the diff: only the end is new.",
  };
}

function modelResponseCaption(x: ExchangeSummary): Caption {
  const c = x.classification;
  if (x.state === "error" || (x.status !== null && x.status >= 400)) {
    return { title: "The model server failed", text: "The model server answered with an error. The host decides what to do next — retry, or give up and tell you." };
  }
  if (c.kind === "model.chat" && c.toolCalls.length > 0) {
    const names = c.toolCalls.map((t) => t.name).join(", ");
    return {
      title: `The model asks for a tool: ${names}`,
      text: "The model wrote text that looks like a function call, between <tool_call> tags. The model server parsed that text into tool_calls JSON. The model cannot run anything: it only asks. It has no idea an MCP server exists.",
    };
  }
  return {
    title: "The model answers in words",
    text: "No tool call this time, so the host's loop stops here. The model returned plain text; the host will pass it back to you.",
  };
}

function mcpCaption(x: ExchangeSummary): Caption {
  const c = x.classification;
  if (c.kind !== "mcp") return { title: "The host talks to the MCP server", text: "One JSON-RPC message on the MCP server's single endpoint." };
  if (c.method === "tools/list") {
    return { title: "The host asks the MCP server which tools it has", text: "MCP is JSON-RPC on one endpoint. tools/list returns each tool with a plain-English description and a JSON Schema — written for the model, not for a developer." };
  }
  if (c.method === "tools/call") {
    const tool = c.toolName ?? "a tool";
    if (c.outcome === "protocol-error") {
      return { title: `Protocol error calling ${tool}`, text: "A JSON-RPC error: the request itself was wrong (unknown tool, bad JSON, wrong headers). That is a bug for the developer of the host, not something the model can fix." };
    }
    if (c.outcome === "tool-error") {
      return { title: `Tool error from ${tool}`, text: "The tool ran and reported a problem (isError: true) as a normal result. The host pastes it back to the model, which can fix its call and retry." };
    }
    return {
      title: `The host runs the tool: ${tool}`,
      text: "The host decided to act on the model's request and calls the MCP server itself. This is the only moment anything touches the notes file — the model never does. The host is the real control point.",
    };
  }
  return { title: `MCP: ${c.method ?? "message"}`, text: "One JSON-RPC message on the MCP server's single endpoint, POST /mcp." };
}

/** The caption for a hop; `firstModelRequestId` tells the first model request from the resends. */
export function captionFor(hop: Hop, exchange: ExchangeSummary | undefined, firstModelRequestId: number | undefined): Caption {
  if (!exchange) return { title: `Hop ${hop.number}`, text: "" };
  switch (hop.kind) {
    case "agent-request":
      return { title: "You ask the host", text: "Your question goes to the host — the program that runs the agent loop. The host, not the model, makes every network call from here on." };
    case "agent-response":
      return { title: "The host answers you", text: "The host returns the model's final words and the list of tool calls it made. Count the hops: the model was in only some of them, receiving text and returning text." };
    case "model-request":
      return modelRequestCaption(exchange, exchange.id === firstModelRequestId);
    case "model-response":
      return modelResponseCaption(exchange);
    case "mcp":
      return mcpCaption(exchange);
  }
}

/** A short label for an arrow in the sequence view. */
export function arrowLabel(hop: Hop, exchange: ExchangeSummary | undefined, direction: "request" | "response"): string {
  if (!exchange) return "";
  const c = exchange.classification;
  if (direction === "request") {
    if (c.kind === "agent") return c.message ? `“${c.message}”` : `${exchange.method} ${exchange.url}`;
    if (c.kind === "mcp") return [c.method, c.toolName].filter(Boolean).join(" ") || `${exchange.method} ${exchange.url}`;
    if (c.kind === "model.chat") return `${exchange.method} ${exchange.url} · ${c.messageCount} msg${c.toolCount ? ` · ${c.toolCount} tools` : ""}`;
    return `${exchange.method} ${exchange.url}`;
  }
  const status = exchange.status === null ? "" : String(exchange.status);
  if (exchange.error) return `${status} ${exchange.error}`.trim();
  if (c.kind === "agent") return c.reply ? `“${c.reply}”` : status;
  if (c.kind === "model.chat") {
    if (c.toolCalls.length) return c.toolCalls.map((t) => `${t.name}(${JSON.stringify(t.arguments)})`).join(", ");
    return c.content ? `“${c.content}”` : status;
  }
  if (c.kind === "mcp") {
    if (c.outcome === "protocol-error") return `JSON-RPC error ${c.errorCode ?? ""} ${c.errorMessage ?? ""}`.trim();
    if (c.outcome === "tool-error") return `isError: ${c.resultText ?? c.errorMessage ?? "tool error"}`;
    if (c.resultText) return c.resultText;
    return c.method === "tools/list" ? "tools" : status;
  }
  return status;
}
