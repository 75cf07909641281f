/**
 * The article's Part 4 trace ("Add buy milk to my notes") as a bundle for the export tests: /agent, tools/list,
 * /api/chat, tools/call append, /api/chat. The second /api/chat is streamed (AGENT_STREAM=true) so it has
 * NDJSON chunks.
 */
import { Buffer } from "node:buffer";
import type { TraceBundle } from "@hopscope/shared/trace/bundle";
import type { Exchange } from "@hopscope/shared/trace/schemas";
import {
  HOST_SPAN_ID,
  MCP,
  MODEL,
  TAP_SPAN_ID,
  TRACE_ID,
  bareMeta,
  bundleFrom,
  exchange,
  jsonRequestHeaders,
  jsonResponseHeaders,
  mcpHeaders,
  userMessage,
  utf8Body,
} from "./fixtures";

const TOOLS = [
  ["read", "Read the whole file", {}, []],
  [
    "write",
    "Write all contents to file",
    { content: { type: "string", description: "New content of the file" } },
    ["content"],
  ],
  [
    "append",
    "Append content to the end of the file",
    { content: { type: "string", description: "Content that gets appended" } },
    ["content"],
  ],
  [
    "update",
    "Find and replace text in the file",
    { search: { type: "string" }, replace: { type: "string" } },
    ["search", "replace"],
  ],
  ["clear", "Empty the file", {}, []],
] as const;

const mcpTools = TOOLS.map(([name, description, properties, required]) => ({
  name,
  description,
  inputSchema: { type: "object", properties, required, additionalProperties: false },
}));
const ollamaTools = TOOLS.map(([name, description, properties, required]) => ({
  type: "function",
  function: { name, description, parameters: { type: "object", properties, required, additionalProperties: false } },
}));

const meta = { ...bareMeta, traceparent: `00-${TRACE_ID}-${HOST_SPAN_ID}-01` };
const serverMeta = { "io.modelcontextprotocol/serverInfo": { name: "mcp_server", version: "0.0.1-SNAPSHOT" } };
const toolCall = { function: { name: "append", arguments: { content: "buy milk" } } };
const assistantCall = { role: "assistant", content: "", tool_calls: [toolCall] };
const reply = 'I\'ve added "buy milk" to your notes.';
const HOST = "http://127.0.0.1:8081";
const metrics = {
  total_duration: 1_212_000_000,
  load_duration: 21_000_000,
  prompt_eval_count: 412,
  prompt_eval_duration: 640_000_000,
  eval_count: 24,
  eval_duration: 530_000_000,
};

export function part4Bundle(): TraceBundle {
  const x = [agentHop(), toolsListHop(), toolCallingChatHop(), appendHop(), streamedChatHop()];
  return bundleFrom(TRACE_ID, userMessage.content, x, [
    { kind: "tool-call", from: 103, to: 104, toolName: "append", toolCallIndex: 0 },
    { kind: "tool-result", from: 104, to: 105, toolName: "append", messageIndex: 2 },
  ]);
}

function agentHop(): Exchange {
  const agentReq = utf8Body(JSON.stringify({ message: userMessage.content }), "application/json");
  const agentRes = utf8Body(
    JSON.stringify({ reply, toolCalls: [{ name: "append", arguments: { content: "buy milk" }, output: "Success" }] }),
    "application/json",
  );
  return exchange(TRACE_ID, 101, 1, {
    tap: "agent",
    url: "/agent",
    upstream: HOST,
    status: 200,
    at: [0, 0.4, 1630.2, 1631],
    requestHeaders: [
      ["Host", "127.0.0.1:7073"],
      ["User-Agent", "curl/8.5.0"],
      ["Accept", "*/*"],
      ["Content-Type", "application/json"],
      ["Content-Length", String(agentReq.size)],
      ["traceparent", `00-${TRACE_ID}-${TAP_SPAN_ID}-01`],
    ],
    requestBody: agentReq,
    responseHeaders: jsonResponseHeaders(agentRes),
    responseBody: agentRes,
    classification: { kind: "agent", message: userMessage.content, reply },
  });
}

function toolsListHop(): Exchange {
  const listReq = utf8Body(
    JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: { _meta: meta } }),
    "application/json",
  );
  const listRes = utf8Body(
    JSON.stringify({ jsonrpc: "2.0", id: 1, result: { resultType: "complete", tools: mcpTools, _meta: serverMeta } }),
    "application/json",
  );
  return exchange(TRACE_ID, 102, 2, {
    tap: "mcp",
    url: "/mcp",
    upstream: MCP,
    status: 200,
    at: [2.1, 2.3, 9.8, 10.1],
    requestHeaders: jsonRequestHeaders("127.0.0.1:7072", listReq, mcpHeaders("tools/list")),
    requestBody: listReq,
    responseHeaders: jsonResponseHeaders(listRes),
    responseBody: listRes,
    classification: { kind: "mcp", method: "tools/list", jsonrpcId: 1, outcome: "ok" },
  });
}

function toolCallingChatHop(): Exchange {
  const chat1Req = utf8Body(
    JSON.stringify({
      model: "qwen2.5:7b",
      messages: [userMessage],
      tools: ollamaTools,
      stream: false,
      keep_alive: "30m",
    }),
    "application/json",
  );
  const chat1Res = utf8Body(
    JSON.stringify({
      model: "qwen2.5:7b",
      created_at: "2026-11-29T20:15:03.412Z",
      message: {
        role: "assistant",
        content: "",
        tool_calls: [{ id: "call_1", function: { index: 0, ...toolCall.function } }],
      },
      done: true,
      done_reason: "stop",
      ...metrics,
    }),
    "application/json",
  );
  return exchange(TRACE_ID, 103, 3, {
    tap: "model",
    url: "/api/chat",
    upstream: MODEL,
    status: 200,
    at: [11, 11.6, 1240.5, 1241],
    requestHeaders: jsonRequestHeaders("127.0.0.1:7071", chat1Req, [
      ["user-agent", "ollama-js/0.6.4 (x64 linux Node.js/v20.19.0)"],
    ]),
    requestBody: chat1Req,
    responseHeaders: jsonResponseHeaders(chat1Res, [["X-Hopscope-Simulated", "1"]]),
    responseBody: chat1Res,
    classification: {
      kind: "model.chat",
      model: "qwen2.5:7b",
      messageCount: 1,
      toolCount: 5,
      stream: false,
      toolCalls: [{ name: "append", arguments: { content: "buy milk" }, id: "call_1" }],
      content: "",
      doneReason: "stop",
      promptEvalCount: 412,
      evalCount: 24,
      totalDuration: 1_212_000_000,
      simulated: true,
    },
  });
}

function appendHop(): Exchange {
  const callReq = utf8Body(
    JSON.stringify({
      jsonrpc: "2.0",
      id: 2,
      method: "tools/call",
      params: { name: "append", arguments: { content: "buy milk" }, _meta: meta },
    }),
    "application/json",
  );
  const callRes = utf8Body(
    JSON.stringify({
      jsonrpc: "2.0",
      id: 2,
      result: {
        resultType: "complete",
        content: [{ type: "text", text: "Success" }],
        isError: false,
        _meta: serverMeta,
      },
    }),
    "application/json",
  );
  return exchange(TRACE_ID, 104, 4, {
    tap: "mcp",
    url: "/mcp",
    upstream: MCP,
    status: 200,
    at: [1243, 1243.2, 1251, 1251.3],
    requestHeaders: jsonRequestHeaders("127.0.0.1:7072", callReq, mcpHeaders("tools/call", "append")),
    requestBody: callReq,
    responseHeaders: jsonResponseHeaders(callRes),
    responseBody: callRes,
    classification: {
      kind: "mcp",
      method: "tools/call",
      toolName: "append",
      jsonrpcId: 2,
      arguments: { content: "buy milk" },
      outcome: "ok",
      resultText: "Success",
    },
  });
}

function streamedChatHop(): Exchange {
  const chat2Req = utf8Body(
    JSON.stringify({
      model: "qwen2.5:7b",
      messages: [userMessage, assistantCall, { role: "tool", content: "Success", tool_name: "append" }],
      tools: ollamaTools,
      stream: true,
      keep_alive: "30m",
    }),
    "application/json",
  );
  const pieces = ["I've", " added", ' "buy', ' milk"', " to", " your", " notes", "."];
  const lines = pieces.map(
    (p) =>
      `${JSON.stringify({ model: "qwen2.5:7b", created_at: "2026-11-29T20:15:04.1Z", message: { role: "assistant", content: p }, done: false })}\n`,
  );
  lines.push(
    `${JSON.stringify({ model: "qwen2.5:7b", created_at: "2026-11-29T20:15:04.3Z", message: { role: "assistant", content: "" }, done: true, done_reason: "stop", ...metrics, eval_count: 10 })}\n`,
  );
  const chat2Res = utf8Body(lines.join(""), "application/x-ndjson");
  const chat2Chunks = lines.map((l, i): [number, number] => [Buffer.byteLength(l), 120 + i * 22.5]);
  return exchange(TRACE_ID, 105, 5, {
    tap: "model",
    url: "/api/chat",
    upstream: MODEL,
    status: 200,
    at: [1253, 1253.7, 1373, 1627.9],
    requestHeaders: jsonRequestHeaders("127.0.0.1:7071", chat2Req),
    requestBody: chat2Req,
    responseHeaders: [
      ["Content-Type", "application/x-ndjson"],
      ["X-Hopscope-Simulated", "1"],
      ["Date", "Sun, 29 Nov 2026 20:15:04 GMT"],
      ["Transfer-Encoding", "chunked"],
    ],
    responseBody: chat2Res,
    chunks: chat2Chunks,
    classification: {
      kind: "model.chat",
      model: "qwen2.5:7b",
      messageCount: 3,
      toolCount: 5,
      stream: true,
      toolCalls: [],
      content: reply,
      doneReason: "stop",
      promptEvalCount: 412,
      evalCount: 10,
      simulated: true,
    },
  });
}
