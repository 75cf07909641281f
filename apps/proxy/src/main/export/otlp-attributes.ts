/**
 * Span names and attributes for one recorded exchange, per the OpenTelemetry semantic conventions:
 * HTTP client/server spans, GenAI (inference `chat {model}`, `execute_tool {tool}`, `invoke_agent`) and
 * MCP (`{mcp.method.name} {target}`). The GenAI and MCP names are spelled out here rather than imported:
 * in @opentelemetry/semantic-conventions 1.45 they are incubating and marked deprecated (moved to the
 * GenAI conventions repository), and OpenTelemetry advises copying incubating names.
 */
import type { Attributes } from "@opentelemetry/api";
import {
  ATTR_ERROR_TYPE,
  ATTR_HTTP_REQUEST_METHOD,
  ATTR_HTTP_RESPONSE_STATUS_CODE,
  ATTR_HTTP_ROUTE,
  ATTR_SERVER_ADDRESS,
  ATTR_SERVER_PORT,
  ATTR_URL_FULL,
  ATTR_URL_PATH,
} from "@opentelemetry/semantic-conventions";
import type { Classification, Exchange } from "@hopscope/shared/trace/schemas";
import { absoluteUrl } from "./absolute-url";
import { failureOf, type Failure } from "./exchange-failure";
import { headerValue } from "@hopscope/shared/trace/json-text";

export const GEN_AI = {
  operationName: "gen_ai.operation.name",
  providerName: "gen_ai.provider.name",
  requestModel: "gen_ai.request.model",
  requestStream: "gen_ai.request.stream",
  responseFinishReasons: "gen_ai.response.finish_reasons",
  responseTimeToFirstChunk: "gen_ai.response.time_to_first_chunk",
  usageInputTokens: "gen_ai.usage.input_tokens",
  usageOutputTokens: "gen_ai.usage.output_tokens",
  toolName: "gen_ai.tool.name",
  toolCallId: "gen_ai.tool.call.id",
  toolCallArguments: "gen_ai.tool.call.arguments",
  toolCallResult: "gen_ai.tool.call.result",
  conversationId: "gen_ai.conversation.id",
} as const;

export const MCP = {
  methodName: "mcp.method.name",
  protocolVersion: "mcp.protocol.version",
  jsonrpcRequestId: "jsonrpc.request.id",
  jsonrpcErrorCode: "rpc.jsonrpc.error_code",
  jsonrpcErrorMessage: "rpc.jsonrpc.error_message",
} as const;

/** hopscope's own attributes: what a backend needs to find the exchange in hopscope again. */
export const HOPSCOPE = {
  exchangeId: "hopscope.exchange.id",
  tap: "hopscope.tap",
  state: "hopscope.state",
  chunkCount: "hopscope.chunk_count",
  toolCalls: "hopscope.model.tool_calls",
  simulated: "hopscope.simulated",
  traceName: "hopscope.trace.name",
} as const;

/** Attributes with `undefined` values dropped (the SDK would warn about them). */
function defined(attrs: Record<string, Attributes[string] | undefined>): Attributes {
  return Object.fromEntries(Object.entries(attrs).filter(([, v]) => v !== undefined)) as Attributes;
}

function httpAttributes(ex: Exchange, side: "client" | "server"): Attributes {
  const url = new URL(absoluteUrl(ex));
  const port = url.port === "" ? (url.protocol === "https:" ? 443 : 80) : Number(url.port);
  return defined({
    [ATTR_HTTP_REQUEST_METHOD]: ex.method,
    [ATTR_HTTP_RESPONSE_STATUS_CODE]: ex.status ?? undefined,
    [ATTR_SERVER_ADDRESS]: url.hostname,
    [ATTR_SERVER_PORT]: port,
    ...(side === "client"
      ? { [ATTR_URL_FULL]: url.href }
      : { [ATTR_URL_PATH]: url.pathname, [ATTR_HTTP_ROUTE]: url.pathname }),
    "http.request.body.size": ex.requestBody?.size,
    "http.response.body.size": ex.responseBody?.size,
    [HOPSCOPE.exchangeId]: ex.id,
    [HOPSCOPE.tap]: ex.tap,
    [HOPSCOPE.state]: ex.state,
    [HOPSCOPE.chunkCount]: ex.chunkCount,
  });
}

export interface SpanDescription {
  name: string;
  attributes: Attributes;
  /** Set when the exchange failed: the span gets status ERROR with this message and `error.type`. */
  error?: Failure;
}

type Of<K extends Classification["kind"]> = Extract<Classification, { kind: K }>;

function chatSpan(ex: Exchange, c: Of<"model.chat">): SpanDescription {
  const t = ex.timings;
  return {
    name: c.model ? `chat ${c.model}` : "chat",
    attributes: defined({
      ...httpAttributes(ex, "client"),
      [GEN_AI.operationName]: "chat",
      [GEN_AI.providerName]: "ollama",
      [GEN_AI.requestModel]: c.model,
      [GEN_AI.requestStream]: c.stream,
      [GEN_AI.responseFinishReasons]: c.doneReason ? [c.doneReason] : undefined,
      [GEN_AI.usageInputTokens]: c.promptEvalCount,
      [GEN_AI.usageOutputTokens]: c.evalCount,
      [GEN_AI.responseTimeToFirstChunk]: c.stream && t.firstByte !== null ? (t.firstByte - t.start) / 1000 : undefined,
      [HOPSCOPE.toolCalls]: c.toolCalls.length > 0 ? c.toolCalls.map((tc) => tc.name) : undefined,
      [HOPSCOPE.simulated]: c.simulated,
    }),
  };
}

function mcpSpan(ex: Exchange, c: Of<"mcp">): SpanDescription {
  const method = c.method ?? "unknown";
  const target = method === "tools/call" ? c.toolName : undefined;
  const version = headerValue(ex.requestHeaders, "mcp-protocol-version");
  return {
    name: target ? `${method} ${target}` : method,
    attributes: defined({
      ...httpAttributes(ex, "client"),
      [MCP.methodName]: method,
      [MCP.protocolVersion]: version,
      [MCP.jsonrpcRequestId]: c.jsonrpcId === undefined || c.jsonrpcId === null ? undefined : String(c.jsonrpcId),
      [MCP.jsonrpcErrorCode]: c.errorCode,
      [MCP.jsonrpcErrorMessage]: c.errorMessage,
      [GEN_AI.operationName]: method === "tools/call" ? "execute_tool" : undefined,
      [GEN_AI.toolName]: target,
      [GEN_AI.toolCallArguments]: target && c.arguments ? JSON.stringify(c.arguments) : undefined,
      [GEN_AI.toolCallResult]: target ? c.resultText : undefined,
    }),
  };
}

/** Name and attributes of the span that stands for one exchange. */
export function describeExchange(ex: Exchange): SpanDescription {
  const c = ex.classification;
  const error = failureOf(ex);
  const described = ((): SpanDescription => {
    switch (c.kind) {
      case "model.chat":
        return chatSpan(ex, c);
      case "mcp":
        return mcpSpan(ex, c);
      case "agent":
        return {
          name: "invoke_agent",
          attributes: defined({
            ...httpAttributes(ex, "server"),
            [GEN_AI.operationName]: "invoke_agent",
            [GEN_AI.conversationId]: c.conversationId,
          }),
        };
      case "model.other":
        return {
          name: ex.method,
          attributes: defined({
            ...httpAttributes(ex, "client"),
            [GEN_AI.providerName]: "ollama",
            [HOPSCOPE.simulated]: c.simulated,
          }),
        };
      case "other":
        return { name: ex.method, attributes: httpAttributes(ex, "client") };
    }
  })();
  return error
    ? { ...described, attributes: { ...described.attributes, [ATTR_ERROR_TYPE]: error.type }, error }
    : described;
}
