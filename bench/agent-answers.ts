/**
 * Real agents' model requests (recorded in tests/fixtures/agents/) and a canned streamed answer for each
 * endpoint they call, for the agent-sized load (bench/agent-load.ts) and the bench upstream (bench/upstream.ts).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";

const FIXTURES = join(import.meta.dirname, "..", "tests", "fixtures", "agents");

const RecordedRequestSchema = z.object({
  method: z.string(),
  path: z.string(),
  headers: z.record(z.string(), z.string()),
  requestBody: z.string(),
  responseBody: z.string(),
});

export interface AgentRequest {
  /** "claude-code", "codex", … */
  agent: string;
  method: string;
  path: string;
  /** As the agent sent them, less what the load generator sets itself (framing, Host). */
  headers: Record<string, string>;
  body: string;
}

/** Set by the load generator (its own framing and Host), so not replayed from the recording. */
const OWN_HEADERS = new Set(["host", "content-length", "connection", "transfer-encoding", "accept-encoding"]);

function recorded(agent: string, file: string): z.infer<typeof RecordedRequestSchema> {
  return RecordedRequestSchema.parse(JSON.parse(readFileSync(join(FIXTURES, agent, file), "utf8")));
}

/** One recorded model request of an agent, ready to send again. */
export function agentRequest(agent: string, file: string): AgentRequest {
  const r = recorded(agent, file);
  const headers = Object.fromEntries(Object.entries(r.headers).filter(([k]) => !OWN_HEADERS.has(k.toLowerCase())));
  return { agent, method: r.method, path: r.path, headers, body: r.requestBody };
}

/** The largest request each agent sent in its recorded run: what the load sends. */
export const AGENT_LOADS: readonly { agent: string; file: string }[] = [
  { agent: "claude-code", file: "model-04.json" },
  { agent: "codex", file: "model-01.json" },
  { agent: "qwen-code", file: "model-01.json" },
  { agent: "opencode", file: "model-02.json" },
];

/** Anthropic's Messages stream of a short answer (Claude Code's recorded run was refused, so none was recorded). */
const MESSAGES_SSE = [
  [
    "message_start",
    {
      type: "message_start",
      message: {
        id: "msg_bench",
        type: "message",
        role: "assistant",
        model: "qwen2.5:7b",
        content: [],
        stop_reason: null,
        usage: { input_tokens: 13959, output_tokens: 0 },
      },
    },
  ],
  ["content_block_start", { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } }],
  ...["I've", " added", ' "buy milk"', " to", " your", " notes."].map((text) => [
    "content_block_delta",
    { type: "content_block_delta", index: 0, delta: { type: "text_delta", text } },
  ]),
  ["content_block_stop", { type: "content_block_stop", index: 0 }],
  ["message_delta", { type: "message_delta", delta: { stop_reason: "end_turn" }, usage: { output_tokens: 7 } }],
  ["message_stop", { type: "message_stop" }],
]
  .map(([event, data]) => `event: ${event as string}\ndata: ${JSON.stringify(data)}\n\n`)
  .join("");

/** The streamed answer the bench upstream gives each agent endpoint: the recorded one where there is one. */
export function cannedAnswers(): Map<string, string> {
  return new Map([
    ["/v1/messages", MESSAGES_SSE],
    ["/v1/chat/completions", recorded("qwen-code", "model-01.json").responseBody],
    ["/v1/responses", recorded("codex", "model-01.json").responseBody],
  ]);
}
