/** The failures bundle for the export tests: every tap's ways to fail, in one trace with no /agent exchange. */
import type { TraceBundle } from "@hopscope/shared/trace/bundle";
import type { Body, Exchange } from "@hopscope/shared/trace/schemas";
import {
  MCP,
  MODEL,
  bareMeta,
  binaryBody,
  bundleFrom,
  exchange,
  jsonRequestHeaders,
  jsonResponseHeaders,
  mcpHeaders,
  userMessage,
  utf8Body,
} from "./fixtures";

export const FAULT_TRACE_ID = "0af7651916cd43dd8448eb211c80319c";

/**
 * Failures on every tap: a tool error the model can fix, a protocol error, the model server down (the tap's
 * 502), a request body that is not UTF-8, and a client that hung up mid-stream. No /agent exchange, so
 * exports must invent a root.
 */
export function faultBundle(): TraceBundle {
  const x = [toolErrorHop(), unknownToolHop(), modelDownHop(), binaryUploadHop(), abortedStreamHop()];
  const bundle = bundleFrom(FAULT_TRACE_ID, "faults", x, []);
  return { ...bundle, trace: { ...bundle.trace, groupedBy: "single", simulated: null } };
}

/** A tool error the model can fix: append without its argument. */
function toolErrorHop(): Exchange {
  const badCallReq = utf8Body(
    JSON.stringify({
      jsonrpc: "2.0",
      id: 3,
      method: "tools/call",
      params: { name: "append", arguments: {}, _meta: bareMeta },
    }),
    "application/json",
  );
  const badCallRes = utf8Body(
    JSON.stringify({
      jsonrpc: "2.0",
      id: 3,
      result: {
        resultType: "complete",
        content: [{ type: "text", text: "Param (content) is required" }],
        isError: true,
      },
    }),
    "application/json",
  );
  return exchange(FAULT_TRACE_ID, 201, 1, {
    tap: "mcp",
    url: "/mcp",
    upstream: MCP,
    status: 200,
    at: [0, 0.2, 4, 4.2],
    requestHeaders: jsonRequestHeaders("127.0.0.1:7072", badCallReq, mcpHeaders("tools/call", "append"), false),
    requestBody: badCallReq,
    responseHeaders: jsonResponseHeaders(badCallRes),
    responseBody: badCallRes,
    classification: {
      kind: "mcp",
      method: "tools/call",
      toolName: "append",
      jsonrpcId: 3,
      arguments: {},
      outcome: "tool-error",
      resultText: "Param (content) is required",
    },
  });
}

/** A protocol error: a tool the server does not have. */
function unknownToolHop(): Exchange {
  const unknownReq = utf8Body(
    JSON.stringify({
      jsonrpc: "2.0",
      id: 4,
      method: "tools/call",
      params: { name: "delete#all;now", arguments: {}, _meta: bareMeta },
    }),
    "application/json",
  );
  const unknownRes = utf8Body(
    JSON.stringify({ jsonrpc: "2.0", id: 4, error: { code: -32602, message: "Unknown tool: delete#all;now" } }),
    "application/json",
  );
  return exchange(FAULT_TRACE_ID, 202, 2, {
    tap: "mcp",
    url: "/mcp",
    upstream: MCP,
    status: 200,
    at: [5, 5.2, 7, 7.1],
    requestHeaders: jsonRequestHeaders("127.0.0.1:7072", unknownReq, mcpHeaders("tools/call", "delete#all;now"), false),
    requestBody: unknownReq,
    responseHeaders: jsonResponseHeaders(unknownRes),
    responseBody: unknownRes,
    classification: {
      kind: "mcp",
      method: "tools/call",
      toolName: "delete#all;now",
      jsonrpcId: 4,
      arguments: {},
      outcome: "protocol-error",
      errorCode: -32602,
      errorMessage: "Unknown tool: delete#all;now",
    },
  });
}

/** The question both failed chats asked: one message, no tools, no stream. */
function plainChatRequest(): Body {
  return utf8Body(JSON.stringify({ model: "qwen2.5:7b", messages: [userMessage], stream: false }), "application/json");
}

/** The model server down: the tap's 502. */
function modelDownHop(): Exchange {
  const chatReq = plainChatRequest();
  const downRes = utf8Body(
    JSON.stringify({ error: `upstream ${MODEL} is not reachable (ECONNREFUSED)` }),
    "application/json",
  );
  return exchange(FAULT_TRACE_ID, 203, 3, {
    tap: "model",
    url: "/api/chat",
    upstream: MODEL,
    status: 502,
    state: "error",
    error: `upstream ${MODEL} is not reachable (ECONNREFUSED)`,
    at: [8, 8.3, 9.5, 9.6],
    requestHeaders: jsonRequestHeaders("127.0.0.1:7071", chatReq, [], false),
    requestBody: chatReq,
    responseHeaders: [
      ["content-type", "application/json"],
      ["content-length", String(downRes.size)],
    ],
    responseBody: downRes,
    classification: {
      kind: "model.chat",
      model: "qwen2.5:7b",
      messageCount: 1,
      toolCount: 0,
      stream: false,
      toolCalls: [],
    },
  });
}

/** A request body that is not UTF-8. */
function binaryUploadHop(): Exchange {
  const binary = binaryBody(new Uint8Array([0xff, 0xfe, 0x00, 0x41, 0xc3, 0x28, 0x80]), "application/octet-stream");
  return exchange(FAULT_TRACE_ID, 204, 4, {
    tap: "model",
    method: "PUT",
    url: "/api/blobs/sha256:abc?digest=1",
    upstream: MODEL,
    status: 201,
    at: [10, 10.5, 11, 11.2],
    requestHeaders: [
      ["content-type", "application/octet-stream"],
      ["content-length", String(binary.size)],
    ],
    requestBody: binary,
    responseHeaders: [["content-length", "0"]],
    responseBody: null,
    classification: { kind: "model.other", endpoint: "/api/blobs" },
  });
}

/** A client that hung up mid-stream. */
function abortedStreamHop(): Exchange {
  const chatReq = plainChatRequest();
  const partial = utf8Body(
    `${JSON.stringify({ model: "qwen2.5:7b", message: { role: "assistant", content: "I" }, done: false })}\n`,
    "application/x-ndjson",
  );
  return exchange(FAULT_TRACE_ID, 205, 5, {
    tap: "model",
    url: "/api/chat",
    upstream: MODEL,
    status: 200,
    state: "aborted",
    error: "client closed the connection mid-stream",
    at: [12, 12.4, 30, 31],
    requestHeaders: jsonRequestHeaders("127.0.0.1:7071", chatReq, [], false),
    requestBody: chatReq,
    responseHeaders: [["Content-Type", "application/x-ndjson"]],
    responseBody: partial,
    classification: {
      kind: "model.chat",
      model: "qwen2.5:7b",
      messageCount: 1,
      toolCount: 0,
      stream: true,
      toolCalls: [],
      content: "I",
    },
  });
}
