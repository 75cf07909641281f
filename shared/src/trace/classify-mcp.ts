/**
 * Classification of one MCP Streamable HTTP exchange: a JSON-RPC message POSTed to the MCP endpoint,
 * answered with `application/json` or with an SSE stream whose last JSON-RPC response answers it.
 */
import type { Classification } from "./schemas";
import { clipText, isRecord, parsedRequestJson, type RequestInput } from "./json-text";
import { tryParseJson } from "../json/parse";
import { parseSse } from "../framing/sse";

type Mcp = Extract<Classification, { kind: "mcp" }>;

export interface McpClassifyInput extends RequestInput {
  status: number | null;
  responseText: string | null;
  responseContentType?: string | undefined;
}

const METHOD_NOT_FOUND = -32601;

/**
 * Methods a host asks every server at the start, to learn what it offers beyond tools: a server without
 * prompts or resources answers -32601, which says "not offered here", not that anything went wrong. So does
 * a server of an older revision to the 2026-07-28 `server/discover` probe, after which the host falls back to
 * `initialize` (mcp-2026-07-28, "Discovery").
 */
export const OPTIONAL_PROBES: ReadonlySet<string> = new Set([
  "server/discover",
  "prompts/list",
  "resources/list",
  "resources/templates/list",
]);

export function classifyMcp(input: McpClassifyInput): Classification {
  const req = parsedRequestJson(input);
  const out: Mcp = { kind: "mcp", outcome: "pending" };
  readRequest(req, out);
  const isNotification = isRecord(req) && typeof req.method === "string" && !("id" in req);
  if (input.status === null) return out;
  const response = findResponse(input.responseText, input.responseContentType, out.jsonrpcId);
  if (readAnswer(response, out)) return out;
  if (input.status >= 400) {
    out.outcome = "http-error";
    return out;
  }
  if (isNotification) out.outcome = "notification";
  else if (input.responseText !== null) out.outcome = "ok";
  return out;
}

/** The method, id, tool name and arguments of the JSON-RPC request. */
function readRequest(req: unknown, out: Mcp): void {
  if (!isRecord(req)) return;
  if (typeof req.method === "string") out.method = req.method;
  if (typeof req.id === "string" || typeof req.id === "number") out.jsonrpcId = req.id;
  const params = isRecord(req.params) ? req.params : undefined;
  if (params && typeof params.name === "string") out.toolName = params.name;
  if (params && isRecord(params.arguments)) out.arguments = params.arguments;
}

/** The outcome a JSON-RPC error or result gives; false when the response holds neither. */
function readAnswer(response: unknown, out: Mcp): boolean {
  if (isRecord(response) && isRecord(response.error)) {
    const notOffered = response.error.code === METHOD_NOT_FOUND && OPTIONAL_PROBES.has(out.method ?? "");
    out.outcome = notOffered ? "not-offered" : "protocol-error";
    if (typeof response.error.code === "number") out.errorCode = response.error.code;
    if (typeof response.error.message === "string") out.errorMessage = clipText(response.error.message);
    return true;
  }
  if (isRecord(response) && "result" in response) {
    const result = response.result;
    out.outcome = isRecord(result) && result.isError === true ? "tool-error" : "ok";
    const text = resultText(result);
    if (text !== undefined) out.resultText = clipText(text);
    return true;
  }
  return false;
}

/**
 * A message recorded by the stdio tap (`hopscope wrap`): the request body is one JSON-RPC line, the response
 * body its answer line. stdio has no HTTP status: a message that expects no answer (a notification) is
 * complete as it is; one still without its answer is pending. stderr lines, the exit and frames that are
 * not JSON-RPC are "other".
 */
export function classifyStdioMcp(input: {
  url: string;
  requestText: string | null;
  responseText: string | null;
}): Classification {
  const req = tryParseJson(input.requestText);
  if (input.url === "stderr" || input.url === "exit" || !isRecord(req) || typeof req.method !== "string")
    return { kind: "other" };
  const answered = input.responseText !== null || !("id" in req);
  return classifyMcp({
    status: answered ? 0 : null,
    requestText: input.requestText,
    requestJson: req,
    responseText: input.responseText,
    responseContentType: "application/json",
  });
}

/** The JSON-RPC response in a JSON body, or in the SSE events (the one with the request's id, else the last). */
export function findResponse(text: string | null, contentType: string | undefined, id: Mcp["jsonrpcId"]): unknown {
  if (text === null) return undefined;
  const direct = tryParseJson(text);
  // Most answers are JSON: what an SSE body looks like is asked only of a body that is not.
  if (direct !== undefined) return direct;
  const isSse =
    (contentType ?? "").toLowerCase().includes("text/event-stream") ||
    /^(data|event|id|:)/m.test(text.trimStart().slice(0, 6));
  if (!isSse) return direct;
  const messages = parseSse(text)
    .map((e) => tryParseJson(e.data))
    .filter(isRecord);
  const responses = messages.filter((m) => "result" in m || "error" in m);
  return responses.find((m) => id !== undefined && m.id === id) ?? responses.at(-1);
}

/** The text a tool returned: its `content[]` text items joined by newlines. */
export function resultText(result: unknown): string | undefined {
  if (!isRecord(result) || !Array.isArray(result.content)) return undefined;
  // A loop, not flatMap: this runs for every tool call recorded, and most results hold one text item.
  let out: string | undefined;
  for (const c of result.content as unknown[]) {
    if (isRecord(c) && c.type === "text" && typeof c.text === "string")
      out = out === undefined ? c.text : `${out}\n${c.text}`;
  }
  return out;
}
