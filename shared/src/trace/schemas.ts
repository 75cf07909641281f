/**
 * The trace model: what the recorder (apps/proxy) stores and serves, and what the timeline (apps/web)
 * shows. One zod schema per shape; the proxy validates rows it reads back from SQLite and frames it
 * sends, the browser validates what it receives.
 *
 * Vocabulary
 * - tap: one of the recorder's reverse proxies: `agent` (user↔host), `model` (host↔model server),
 *   `mcp` (host↔MCP server).
 * - exchange: one HTTP request and its response as seen on a tap, with streamed chunks and timings.
 * - trace: the exchanges of one user question, grouped by W3C `traceparent` (or the fallback rules).
 */
import { z } from "zod";

export const TapSchema = z.enum(["agent", "model", "mcp"]);
export type Tap = z.infer<typeof TapSchema>;

/** Headers in wire order, names as sent (case kept), repeated names kept. Secrets already redacted. */
export const HeaderListSchema = z.array(z.tuple([z.string(), z.string()]));
export type HeaderList = z.infer<typeof HeaderListSchema>;

/**
 * A recorded body. Text bodies travel as UTF-8 text; anything that is not valid UTF-8 travels as base64
 * so no byte is lost. `size` is the byte length on the wire; `truncated` when the recorder kept only
 * the first `storedSize` bytes (the body was still forwarded whole).
 */
export const BodySchema = z.object({
  encoding: z.enum(["utf8", "base64"]),
  data: z.string(),
  size: z.number().int().nonnegative(),
  storedSize: z.number().int().nonnegative(),
  truncated: z.boolean(),
  contentType: z.string().optional(),
});
export type Body = z.infer<typeof BodySchema>;

/** One chunk of a streamed response body, as it arrived at the tap. */
export const ChunkSchema = z.object({
  index: z.number().int().nonnegative(),
  /** Milliseconds since the exchange started (monotonic clock), fractional. */
  t: z.number().nonnegative(),
  /** Byte offset of this chunk in the response body. */
  offset: z.number().int().nonnegative(),
  size: z.number().int().nonnegative(),
});
export type Chunk = z.infer<typeof ChunkSchema>;

/** The last instant a JavaScript Date holds (year 275760): a later time cannot be written as a date. */
export const MAX_EPOCH_MS = 8.64e15;

/** A wall-clock time, epoch milliseconds: one every export can write as a date. */
export const EpochMsSchema = z
  .number()
  .min(0, "a time before 1970 (epoch milliseconds below 0)")
  .max(MAX_EPOCH_MS, "a time after the year 275760 (epoch milliseconds above 8.64e15), which no date can hold");

/** Wall-clock timings of an exchange, epoch milliseconds (fractional). */
export const TimingsSchema = z.object({
  start: EpochMsSchema,
  requestEnd: EpochMsSchema.nullable(),
  firstByte: EpochMsSchema.nullable(),
  end: EpochMsSchema.nullable(),
});
export type Timings = z.infer<typeof TimingsSchema>;

export const ExchangeStateSchema = z.enum(["pending", "streaming", "complete", "error", "aborted"]);
export type ExchangeState = z.infer<typeof ExchangeStateSchema>;

/** A tool call the model asked for, as parsed by the model server (`message.tool_calls[]`). */
export const ClassifiedToolCallSchema = z.object({
  name: z.string(),
  arguments: z.record(z.string(), z.unknown()),
  id: z.string().optional(),
});

/**
 * What a model request says of the conversation line it belongs to, in hashes (request-line.ts), so the
 * timeline can tell a run's main line from its retries and side requests (run-lines.ts) without bodies.
 * `system`: its system prompt (every system or developer message); `turns`: each other message, in order
 * (the first 256); `history`: all of them; `tools`: the tool names it offers; `body`: the whole request
 * as sent. `head`: the system prompt's first sentence; `purpose`: the side task its own words name
 * ("title generation"), when they name one.
 */
export const RequestLineSchema = z.object({
  system: z.string(),
  head: z.string(),
  turns: z.array(z.string()),
  turnCount: z.number().int().nonnegative(),
  history: z.string(),
  tools: z.string(),
  body: z.string(),
  purpose: z.string().optional(),
});
export type RequestLine = z.infer<typeof RequestLineSchema>;

/**
 * What an exchange is, derived from its bytes by the recorder. Discriminated by `kind`.
 * - `model.chat`: `/api/chat` (or `/v1/chat/completions`): N messages, M tools, the tool calls in the response.
 * - `mcp`: one JSON-RPC message to the MCP endpoint; `outcome` says whether a `tools/call` failed as a
 *   protocol error (JSON-RPC `error`) or as a tool error (`result.isError: true`).
 * - `agent`: the user's question to the host (`POST /agent`).
 */
export const ClassificationSchema = z.discriminatedUnion("kind", [
  z.object({
    kind: z.literal("agent"),
    message: z.string().optional(),
    reply: z.string().optional(),
    conversationId: z.string().optional(),
  }),
  z.object({
    kind: z.literal("model.chat"),
    model: z.string().optional(),
    messageCount: z.number().int(),
    toolCount: z.number().int(),
    stream: z.boolean(),
    toolCalls: z.array(ClassifiedToolCallSchema),
    content: z.string().optional(),
    doneReason: z.string().optional(),
    promptEvalCount: z.number().optional(),
    evalCount: z.number().optional(),
    loadDuration: z.number().optional(),
    promptEvalDuration: z.number().optional(),
    evalDuration: z.number().optional(),
    totalDuration: z.number().optional(),
    simulated: z.boolean().optional(),
    /** The model server refused the request (an HTTP error status): its own message. */
    refusal: z.string().optional(),
    line: RequestLineSchema.optional(),
  }),
  z.object({
    kind: z.literal("model.other"),
    endpoint: z.string(),
    model: z.string().optional(),
    simulated: z.boolean().optional(),
    refusal: z.string().optional(),
  }),
  z.object({
    kind: z.literal("mcp"),
    method: z.string().optional(),
    toolName: z.string().optional(),
    jsonrpcId: z.union([z.string(), z.number()]).nullable().optional(),
    arguments: z.record(z.string(), z.unknown()).optional(),
    /** `not-offered`: the server answered -32601 (method not found) to an optional probe (classify-mcp.ts). */
    outcome: z.enum(["ok", "tool-error", "protocol-error", "not-offered", "notification", "http-error", "pending"]),
    errorCode: z.number().optional(),
    errorMessage: z.string().optional(),
    resultText: z.string().optional(),
  }),
  z.object({ kind: z.literal("other") }),
]);
export type Classification = z.infer<typeof ClassificationSchema>;

/** An exchange without its bodies: what lists, the live feed and the sequence view need. */
export const ExchangeSummarySchema = z.object({
  id: z.number().int(),
  traceId: z.string(),
  /** Position in its trace, 1-based, by start time. */
  seq: z.number().int(),
  tap: TapSchema,
  method: z.string(),
  /** Path and query as the client sent them (secrets in the query redacted). */
  url: z.string(),
  upstream: z.string(),
  status: z.number().int().nullable(),
  state: ExchangeStateSchema,
  error: z.string().nullable(),
  timings: TimingsSchema,
  requestSize: z.number().int(),
  responseSize: z.number().int(),
  chunkCount: z.number().int(),
  classification: ClassificationSchema,
});
export type ExchangeSummary = z.infer<typeof ExchangeSummarySchema>;

/** A whole exchange: summary plus headers, bodies and chunks. */
export const ExchangeSchema = ExchangeSummarySchema.extend({
  requestHeaders: HeaderListSchema,
  requestBody: BodySchema.nullable(),
  responseHeaders: HeaderListSchema,
  responseBody: BodySchema.nullable(),
  chunks: z.array(ChunkSchema),
});
export type Exchange = z.infer<typeof ExchangeSchema>;

/**
 * A causal link between exchanges of a trace:
 * - `tool-call`: the model's tool call (response of `from`, index `toolCallIndex`) → the `tools/call` it caused (`to`).
 * - `tool-result`: the `tools/call` (`from`) → the next `/api/chat` request (`to`) whose `role: tool` message
 *   (index `messageIndex`) carried its result back to the model.
 */
export const LinkSchema = z.object({
  kind: z.enum(["tool-call", "tool-result"]),
  from: z.number().int(),
  to: z.number().int(),
  toolName: z.string(),
  toolCallIndex: z.number().int().optional(),
  messageIndex: z.number().int().optional(),
});
export type Link = z.infer<typeof LinkSchema>;

export const TraceSourceSchema = z.enum(["live", "imported"]);

/**
 * Which rule put an exchange in its trace (docs/recorder.md, "Trace grouping"): a W3C traceparent; the next
 * turn of a conversation; an MCP session; an agent's session id (`agent-session`); the tools a model request
 * offers, listed by the run's MCP session (`tools-offered`); the client that probed the model server
 * (`probe`); an MCP session opened on the machine at the start of a run (`agent-start`), by the MCP client
 * that opened the run's other sessions (`mcp-client`); none (`single`).
 */
export const GroupedBySchema = z.enum([
  "traceparent",
  "conversation",
  "session",
  "agent-session",
  "tools-offered",
  "probe",
  "agent-start",
  "mcp-client",
  "single",
]);

/** A trace without its exchanges. */
export const TraceSummarySchema = z.object({
  id: z.string(),
  /** Display name: the user's question by default; renamable. */
  name: z.string(),
  source: TraceSourceSchema,
  createdAt: EpochMsSchema,
  updatedAt: EpochMsSchema,
  exchangeCount: z.number().int(),
  errorCount: z.number().int(),
  /** How the exchanges were grouped: by W3C traceparent, or by the documented fallback. */
  groupedBy: GroupedBySchema,
  /** True when the model server answered as the hopscope stand-in (apps/model-sim). */
  simulated: z.boolean().nullable(),
  /** The saved file under traces/, when the trace was saved. */
  savedAs: z.string().nullable(),
});
export type TraceSummary = z.infer<typeof TraceSummarySchema>;

/** A trace with its exchange summaries (in order) and links. */
export const TraceSchema = TraceSummarySchema.extend({
  exchanges: z.array(ExchangeSummarySchema),
  links: z.array(LinkSchema),
});
export type Trace = z.infer<typeof TraceSchema>;

/**
 * The notes file (see ./notes-file.ts). What caused a change: the `tools/call` exchange in flight when it happened, nothing the recorder saw
 * (someone edited the file by hand, or a client that bypasses the taps), or a presenter's reset.
 */
export const NotesCauseSchema = z.discriminatedUnion("kind", [
  z.object({
    kind: z.literal("tool-call"),
    traceId: z.string(),
    exchangeId: z.number().int(),
    toolName: z.string().optional(),
  }),
  z.object({ kind: z.literal("none") }),
  z.object({ kind: z.literal("reset"), set: z.string() }),
]);
export type NotesCause = z.infer<typeof NotesCauseSchema>;

/**
 * What the recorder saw happen to the file. `changed`: new content (before/after); `deleted`: the file is
 * gone; `too-large`: over the MCP server's size limit (content not kept past it); `not-a-file`: replaced by
 * a directory or other non-file; `unreadable`: it exists but could not be read (permissions, I/O error).
 */
export const NotesEventSchema = z.enum(["changed", "deleted", "too-large", "not-a-file", "unreadable"]);
export type NotesEvent = z.infer<typeof NotesEventSchema>;

export const NotesChangeSchema = z.object({
  id: z.number().int(),
  /** Epoch ms when the recorder saw the change. */
  at: EpochMsSchema,
  /** The file as shown on screen, e.g. `data/db`. */
  file: z.string(),
  event: NotesEventSchema,
  /** The content before and after (bytes as text when UTF-8, else base64); null when there was none. */
  before: BodySchema.nullable(),
  after: BodySchema.nullable(),
  /** Size on disk after the change, in bytes (null when deleted or not a file). */
  size: z.number().int().nonnegative().nullable(),
  /** Why the recorder could not show content (e.g. the OS error), for `unreadable` and friends. */
  detail: z.string().optional(),
  cause: NotesCauseSchema,
  /** The trace the change belongs to: the causing call's trace; null for a reset or an unlinked change. */
  traceId: z.string().nullable(),
});
export type NotesChange = z.infer<typeof NotesChangeSchema>;

/** Frames the recorder sends on its WebSocket feed. Every frame but `snapshot` carries a `seq` for catch-up. */
export const ServerFrameSchema = z.discriminatedUnion("type", [
  z.object({
    type: z.literal("snapshot"),
    seq: z.number().int(),
    traces: z.array(TraceSummarySchema),
    /** Exchanges still in flight, so a client that connects mid-stream can show them. */
    inFlight: z.array(ExchangeSummarySchema),
  }),
  z.object({ type: z.literal("exchange.started"), seq: z.number().int(), exchange: ExchangeSummarySchema }),
  z.object({
    type: z.literal("exchange.chunk"),
    seq: z.number().int(),
    exchangeId: z.number().int(),
    traceId: z.string(),
    chunk: ChunkSchema,
    /** The chunk's text when it is valid UTF-8 and small (NDJSON lines, SSE events); otherwise absent. */
    text: z.string().optional(),
  }),
  z.object({ type: z.literal("exchange.completed"), seq: z.number().int(), exchange: ExchangeSummarySchema }),
  z.object({
    type: z.literal("trace.updated"),
    seq: z.number().int(),
    trace: TraceSummarySchema,
    links: z.array(LinkSchema),
  }),
  z.object({ type: z.literal("trace.deleted"), seq: z.number().int(), traceId: z.string() }),
  z.object({ type: z.literal("error"), seq: z.number().int(), message: z.string() }),
  /** The recorder saw the notes file change (./notes-file.ts). */
  z.object({ type: z.literal("notes.changed"), seq: z.number().int(), change: NotesChangeSchema }),
]);
export type ServerFrame = z.infer<typeof ServerFrameSchema>;

/** Frames a browser may send: resume after a reconnect from the last `seq` it saw. */
export const ClientFrameSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("resume"), since: z.number().int() }),
  z.object({ type: z.literal("ping") }),
]);
export type ClientFrame = z.infer<typeof ClientFrameSchema>;
