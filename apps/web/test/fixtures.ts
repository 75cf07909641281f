/** Builders for trace shapes used by the model unit tests (validated by the shared schemas). */
import { ExchangeSummarySchema, type ExchangeSummary } from "@hopscope/shared/trace/schemas";

let nextId = 1;

export function exchange(
  partial: Partial<ExchangeSummary> & Pick<ExchangeSummary, "tap" | "classification">,
  start: number,
  end: number | null,
): ExchangeSummary {
  const id = partial.id ?? nextId++;
  return ExchangeSummarySchema.parse({
    id,
    traceId: "t1",
    seq: id,
    method: "POST",
    url: partial.tap === "mcp" ? "/mcp" : partial.tap === "agent" ? "/agent" : "/api/chat",
    upstream: "http://127.0.0.1:1",
    status: end === null ? null : 200,
    state: end === null ? "pending" : "complete",
    error: null,
    timings: { start, requestEnd: start + 1, firstByte: end, end },
    requestSize: 10,
    responseSize: 10,
    chunkCount: 0,
    ...partial,
  });
}

/** The article's Part 4 trace: /agent, tools/list, chat, tools/call, chat, reply. */
export function articleTrace(): ExchangeSummary[] {
  const agent = exchange(
    { tap: "agent", classification: { kind: "agent", message: "Add buy milk to my notes" } },
    0,
    100,
  );
  const list = exchange({ tap: "mcp", classification: { kind: "mcp", method: "tools/list", outcome: "ok" } }, 5, 10);
  const chat1 = exchange(
    {
      tap: "model",
      classification: {
        kind: "model.chat",
        messageCount: 1,
        toolCount: 5,
        stream: false,
        toolCalls: [{ name: "append", arguments: { content: "buy milk" } }],
      },
    },
    12,
    40,
  );
  const call = exchange(
    {
      tap: "mcp",
      classification: { kind: "mcp", method: "tools/call", toolName: "append", outcome: "ok", resultText: "Success" },
    },
    41,
    45,
  );
  const chat2 = exchange(
    {
      tap: "model",
      classification: {
        kind: "model.chat",
        messageCount: 3,
        toolCount: 5,
        stream: false,
        toolCalls: [],
        content: "Done.",
      },
    },
    46,
    90,
  );
  return [agent, list, chat1, call, chat2];
}
