/**
 * What `hopscope wrap` (the stdio tap) sends the recorder: `POST /api/ingest/stdio` with a batch of events
 * of one wrapped server, in the order they happened. The wrapper pairs requests with responses itself
 * (it sees both pipes), so an `answered` event carries its request too: a recorder that restarted in
 * between still records the whole exchange. Frames are the bytes of one line, without its newline, cut
 * to the wrapper's cap (`size` is the whole length).
 *
 * How a stdio exchange looks once recorded (tap `mcp`, method `STDIO`, upstream `stdio: <command>`):
 * url `stdin` (a message from the host, with the server's answer), `stdout` (a message the server started,
 * with the host's answer), `stderr` (one line of the server's stderr), `exit` (the server's end).
 */
import { z } from "zod";

export const STDIO_METHOD = "STDIO";
export const STDIO_UPSTREAM_PREFIX = "stdio: ";
/** Longest command line a batch names: Linux's limit on a program's arguments and environment together. */
export const MAX_COMMAND_CHARS = 2 * 1024 * 1024;

export const StdioStreamSchema = z.enum(["stdin", "stdout", "stderr"]);
export type StdioStream = z.infer<typeof StdioStreamSchema>;

export const StdioFrameDataSchema = z.object({
  encoding: z.enum(["utf8", "base64"]),
  data: z.string(),
  /** The whole frame's length in bytes; more than the data holds when the wrapper cut it. */
  size: z.number().int().nonnegative(),
});
export type StdioFrameData = z.infer<typeof StdioFrameDataSchema>;

const at = z.number().describe("epoch ms, fractional");

export const StdioEventSchema = z.discriminatedUnion("type", [
  /** A request was sent (by the host on stdin, or by the server on stdout); the answer is awaited. */
  z.object({
    type: z.literal("request"),
    key: z.string().min(1).max(200),
    stream: z.enum(["stdin", "stdout"]),
    at,
    frame: StdioFrameDataSchema,
  }),
  /** A request's end: its answer, or `error` when none came (the server exited). */
  z.object({
    type: z.literal("answered"),
    key: z.string().min(1).max(200),
    stream: z.enum(["stdin", "stdout"]),
    at: z.number(),
    request: StdioFrameDataSchema,
    answer: StdioFrameDataSchema.nullable(),
    answerAt: z.number(),
    error: z.string().max(2000).optional(),
  }),
  /** A line on its own: a notification, a stderr line, or a frame that is not JSON-RPC (`flag` says why). */
  z.object({
    type: z.literal("line"),
    stream: StdioStreamSchema,
    at,
    frame: StdioFrameDataSchema,
    flag: z.string().max(2000).optional(),
  }),
  /** The server ended: exit code, or the signal that killed it. */
  z.object({ type: z.literal("exit"), at, code: z.number().int().nullable(), signal: z.string().max(20).nullable() }),
]);
export type StdioEvent = z.infer<typeof StdioEventSchema>;

export const StdioBatchSchema = z.object({
  session: z.object({
    /** One wrapped process: its events are one MCP session. */
    id: z.string().regex(/^[A-Za-z0-9_-]{8,64}$/, "a session id of 8 to 64 letters, digits, - or _"),
    /** The wrapped command line, as shown on the MCP lane (a command line can be this long on Linux). */
    command: z.string().max(MAX_COMMAND_CHARS),
  }),
  events: z.array(StdioEventSchema).max(10_000),
});
export type StdioBatch = z.infer<typeof StdioBatchSchema>;

export const StdioIngestResultSchema = z.object({ recorded: z.number().int() });

/** True for an exchange recorded by the stdio tap (its MCP lane is marked "stdio"). */
export function isStdioExchange(x: { method: string; upstream: string }): boolean {
  return x.method === STDIO_METHOD && x.upstream.startsWith(STDIO_UPSTREAM_PREFIX);
}

/** Signals a host stops its stdio server with when its session is over, and the exit codes a shell reports for them. */
const STOP_SIGNALS: ReadonlySet<string> = new Set(["SIGTERM", "SIGINT", "SIGHUP"]);
const STOP_CODES: ReadonlySet<number> = new Set([128 + 1, 128 + 2, 128 + 15]);

/**
 * A wrapped server's end that is no failure: exit code 0, or stopped by its host (SIGTERM, SIGINT or SIGHUP,
 * or the 128 + signal code of a server that exits on one), as hosts end their stdio servers after a session.
 */
export function isNormalEnd(code: number | null, signal: string | null): boolean {
  if (signal !== null) return STOP_SIGNALS.has(signal);
  return code === 0 || (code !== null && STOP_CODES.has(code));
}
