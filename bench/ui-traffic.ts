/** The UI bench's traffic: agent questions of five exchanges each, sent through the recorder's taps under one trace. */
import type { RecorderChild } from "./contenders/index";
import { post } from "./traffic";

const randomHex = (bytes: number) =>
  Array.from(crypto.getRandomValues(new Uint8Array(bytes)), (b) => b.toString(16).padStart(2, "0")).join("");
export const newTraceparent = () => {
  const traceId = randomHex(16);
  return { traceId, header: `00-${traceId}-${randomHex(8)}-01` };
};

export const MCP_LIST = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} });
export const mcpCall = (i: number) =>
  JSON.stringify({
    jsonrpc: "2.0",
    id: i,
    method: "tools/call",
    params: { name: "append", arguments: { content: `item ${i}` } },
  });
const chat = (i: number, second: boolean) =>
  JSON.stringify({
    model: "qwen2.5:7b",
    stream: false,
    messages: [
      { role: "user", content: `Add item ${i} to my notes` },
      ...(second
        ? [
            {
              role: "assistant",
              content: "",
              tool_calls: [{ function: { name: "append", arguments: { content: `item ${i}` } } }],
            },
            { role: "tool", content: "Success", tool_name: "append" },
          ]
        : []),
    ],
  });

/** One agent question's five exchanges, in order, all carrying `traceparent`. */
async function question(r: RecorderChild, i: number, traceparent: string): Promise<void> {
  const h = { traceparent };
  const at = (port: number, path: string) => `http://127.0.0.1:${port}${path}`;
  const statuses = [
    await post(at(r.agentPort, "/agent"), JSON.stringify({ message: `Add item ${i} to my notes` }), h),
    await post(at(r.mcpPort, "/mcp"), MCP_LIST, h),
    await post(at(r.modelPort, "/api/chat"), chat(i, false), h),
    await post(at(r.mcpPort, "/mcp"), mcpCall(i), h),
    await post(at(r.modelPort, "/api/chat"), chat(i, true), h),
  ];
  const bad = statuses.find((s) => s !== 200);
  if (bad !== undefined) throw new Error(`a request through the recorder's taps answered ${bad}`);
}

export async function recordTrace(r: RecorderChild, exchanges: number): Promise<string> {
  const { traceId, header } = newTraceparent();
  const questions = Math.ceil(exchanges / 5);
  const parallel = 4;
  for (let i = 0; i < questions; i += parallel) {
    await Promise.all(Array.from({ length: Math.min(parallel, questions - i) }, (_, k) => question(r, i + k, header)));
  }
  return traceId;
}
