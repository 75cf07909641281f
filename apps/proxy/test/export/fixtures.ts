/**
 * Trace bundles for the export tests, built to the schemas of @hopscope/shared/trace/schemas and shaped
 * like the article's Part 4 trace ("Add buy milk to my notes"): /agent, tools/list, /api/chat,
 * tools/call append, /api/chat. Hand-built because the recorder that would produce them is being written
 * alongside; bodies, headers and chunk offsets are computed from the bytes so sizes are consistent.
 */
import { Buffer } from "node:buffer";
import type { Body, Chunk, Classification, Exchange, HeaderList, Link, Tap } from "@hopscope/shared/trace/schemas";
import type { TraceBundle } from "@hopscope/shared/trace/bundle";

export const TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736";
/** The span id the agent tap put in the traceparent it started for the /agent request. */
export const TAP_SPAN_ID = "00f067aa0ba902b7";
/** The span id the host sent on every call it made while answering the question. */
export const HOST_SPAN_ID = "b7ad6b7169203331";
const T0 = Date.UTC(2026, 10, 29, 20, 15, 3, 120) + 0.25;

export function utf8Body(text: string, contentType?: string): Body {
  const size = Buffer.byteLength(text, "utf8");
  return {
    encoding: "utf8",
    data: text,
    size,
    storedSize: size,
    truncated: false,
    ...(contentType ? { contentType } : {}),
  };
}

export function binaryBody(bytes: Uint8Array, contentType?: string): Body {
  return {
    encoding: "base64",
    data: Buffer.from(bytes).toString("base64"),
    size: bytes.length,
    storedSize: bytes.length,
    truncated: false,
    ...(contentType ? { contentType } : {}),
  };
}

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

export const bareMeta = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": {},
};
const meta = { ...bareMeta, traceparent: `00-${TRACE_ID}-${HOST_SPAN_ID}-01` };
const serverMeta = { "io.modelcontextprotocol/serverInfo": { name: "mcp_server", version: "0.0.1-SNAPSHOT" } };
export const userMessage = { role: "user", content: "Add buy milk to my notes" };
const toolCall = { function: { name: "append", arguments: { content: "buy milk" } } };
const assistantCall = { role: "assistant", content: "", tool_calls: [toolCall] };
const reply = 'I\'ve added "buy milk" to your notes.';

interface Spec {
  tap: Tap;
  method?: string;
  url: string;
  upstream: string;
  status: number | null;
  state?: Exchange["state"];
  error?: string | null;
  /** Offsets from T0 in ms: start, requestEnd, firstByte, end. */
  at: [number, number | null, number | null, number | null];
  requestHeaders: HeaderList;
  requestBody: Body | null;
  responseHeaders: HeaderList;
  responseBody: Body | null;
  /** Byte lengths of the response chunks in arrival order, with arrival offsets from the exchange start. */
  chunks?: [size: number, t: number][];
  classification: Classification;
}

export function exchange(traceId: string, id: number, seq: number, s: Spec): Exchange {
  const [start, requestEnd, firstByte, end] = s.at;
  let offset = 0;
  const chunks: Chunk[] = (
    s.chunks ?? (s.responseBody ? [[s.responseBody.size, (firstByte ?? start) - start]] : [])
  ).map(([size, t], index) => {
    const chunk = { index, t, offset, size };
    offset += size;
    return chunk;
  });
  return {
    id,
    traceId,
    seq,
    tap: s.tap,
    method: s.method ?? "POST",
    url: s.url,
    upstream: s.upstream,
    status: s.status,
    state: s.state ?? "complete",
    error: s.error ?? null,
    timings: {
      start: T0 + start,
      requestEnd: requestEnd === null ? null : T0 + requestEnd,
      firstByte: firstByte === null ? null : T0 + firstByte,
      end: end === null ? null : T0 + end,
    },
    requestSize: s.requestBody?.size ?? 0,
    responseSize: s.responseBody?.size ?? 0,
    chunkCount: chunks.length,
    classification: s.classification,
    requestHeaders: s.requestHeaders,
    requestBody: s.requestBody,
    responseHeaders: s.responseHeaders,
    responseBody: s.responseBody,
    chunks,
  };
}

/** `traceparent: false` for traffic from a bare client that sends none. */
export function jsonRequestHeaders(host: string, body: Body, extra: HeaderList = [], traceparent = true): HeaderList {
  return [
    ["host", host],
    ["content-type", "application/json"],
    ["content-length", String(body.size)],
    ...extra,
    ...(traceparent ? ([["traceparent", `00-${TRACE_ID}-${HOST_SPAN_ID}-01`]] as HeaderList) : []),
  ];
}

export function jsonResponseHeaders(body: Body, extra: HeaderList = []): HeaderList {
  return [
    ["Content-Type", "application/json; charset=utf-8"],
    ...extra,
    ["Date", "Sun, 29 Nov 2026 20:15:03 GMT"],
    ["Content-Length", String(body.size)],
  ];
}

export const MODEL = "http://127.0.0.1:11435";
export const MCP = "http://127.0.0.1:8080";
const HOST = "http://127.0.0.1:8081";
export const mcpHeaders = (method: string, name?: string): HeaderList => [
  ["accept", "application/json, text/event-stream"],
  ["mcp-protocol-version", "2026-07-28"],
  ["mcp-method", method],
  ...(name ? ([["mcp-name", name]] as HeaderList) : []),
];

export function bundleFrom(traceId: string, name: string, exchanges: Exchange[], links: Link[]): TraceBundle {
  const errorCount = exchanges.filter(
    (e) => e.state === "error" || e.state === "aborted" || (e.status ?? 0) >= 400,
  ).length;
  return {
    format: "hopscope-trace",
    version: 1,
    exportedAt: "2026-11-29T20:20:00.000Z",
    generator: { name: "hopscope", version: "0.1.0" },
    trace: {
      id: traceId,
      name,
      source: "live",
      createdAt: exchanges[0]?.timings.start ?? T0,
      updatedAt: Math.max(...exchanges.map((e) => e.timings.end ?? e.timings.start)),
      exchangeCount: exchanges.length,
      errorCount,
      groupedBy: "traceparent",
      simulated: true,
      savedAs: null,
      exchanges: exchanges.map(
        ({ requestHeaders: _rh, requestBody: _rb, responseHeaders: _sh, responseBody: _sb, chunks: _c, ...summary }) =>
          summary,
      ),
      links,
    },
    exchanges,
  };
}

/** The article's Part 4 trace; the second /api/chat is streamed (AGENT_STREAM=true) so it has NDJSON chunks. */
export function part4Bundle(): TraceBundle {
  const agentReq = utf8Body(JSON.stringify({ message: userMessage.content }), "application/json");
  const agentRes = utf8Body(
    JSON.stringify({ reply, toolCalls: [{ name: "append", arguments: { content: "buy milk" }, output: "Success" }] }),
    "application/json",
  );
  const listReq = utf8Body(
    JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: { _meta: meta } }),
    "application/json",
  );
  const listRes = utf8Body(
    JSON.stringify({ jsonrpc: "2.0", id: 1, result: { resultType: "complete", tools: mcpTools, _meta: serverMeta } }),
    "application/json",
  );
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
  const metrics = {
    total_duration: 1_212_000_000,
    load_duration: 21_000_000,
    prompt_eval_count: 412,
    prompt_eval_duration: 640_000_000,
    eval_count: 24,
    eval_duration: 530_000_000,
  };
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

  const x = [
    exchange(TRACE_ID, 101, 1, {
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
    }),
    exchange(TRACE_ID, 102, 2, {
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
    }),
    exchange(TRACE_ID, 103, 3, {
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
    }),
    exchange(TRACE_ID, 104, 4, {
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
    }),
    exchange(TRACE_ID, 105, 5, {
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
    }),
  ];
  return bundleFrom(TRACE_ID, userMessage.content, x, [
    { kind: "tool-call", from: 103, to: 104, toolName: "append", toolCallIndex: 0 },
    { kind: "tool-result", from: 104, to: 105, toolName: "append", messageIndex: 2 },
  ]);
}
