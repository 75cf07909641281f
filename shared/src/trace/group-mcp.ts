/**
 * MCP sessions for traffic without a W3C `traceparent` (the MCP Inspector, SDK clients, a learner's own
 * host): a client's session is one trace. The rule (docs/recorder.md, "MCP sessions"):
 *
 * 1. A legacy request with an `Mcp-Session-Id` the grouper has seen joins that id's session, however long
 *    it was quiet.
 * 2. `initialize` or `server/discover` opens a new session, unless the client's latest session is still
 *    made only of such openers (a 2026-07-28 `server/discover` probe followed by the legacy `initialize`
 *    fallback is one session).
 * 3. Anything else (notifications, `tools/list`, `tools/call`, a `GET /mcp`) joins a session of the same
 *    client connection or the same peer (remote address and User-Agent) that saw a message within
 *    `quietMs`: the one whose JSON-RPC ids it continues (SDK clients count 0, 1, 2, …), else the
 *    connection's, else the peer's latest. With none, it opens a session of its own.
 * 4. A wrapped stdio server (`hopscope wrap`) is one session for the life of the process: no quiet window.
 *
 * A new session takes over the connection it arrived on from any earlier session.
 *
 * Limits: two clients on one machine with the same User-Agent, talking at the same time over new
 * connections, can be mixed up (openers and kept-alive connections still tell them apart), and so can
 * two clients of one process sharing a connection pool; a stateless client quiet for longer than
 * `quietMs` starts a new trace. The memory is bounded and lost on restart.
 */
import { headerValue, isRecord } from "./json-text";

/** Who sent an MCP message: what the tap knows about the client's end of the wire. */
export interface McpClient {
  /** One TCP connection, or one wrapped stdio process. */
  connection: string;
  /** What a client's connections share: remote address and User-Agent. */
  peer: string;
  /** The legacy `Mcp-Session-Id` the request carried. */
  sessionId?: string;
  /** A wrapped stdio server: the process is the session. */
  stdio?: boolean;
  /** The request's JSON-RPC id when it is a number (SDK clients count 0, 1, 2, … per client). */
  jsonrpcId?: number;
}

/**
 * The client-connection identity a tap hands the recorder with each exchange: the client socket's
 * `address:port` (a port is reused only after its socket closed), or `stdio:<session>` for a process
 * wrapped by the stdio tap.
 */
export type Connection = string;

export const STDIO_CONNECTION_PREFIX = "stdio:";

export interface McpSessionOptions {
  newTraceId: () => string;
  /** A session quiet for longer than this is not joined by a new connection or a stateless request. */
  quietMs?: number;
  /** How long a session id or a stdio process is remembered after its last message. */
  ttlMs?: number;
  maxSessions?: number;
}

interface Session {
  traceId: string;
  peer: string;
  connections: Set<string>;
  sessionIds: Set<string>;
  stdio: boolean;
  /** True once a message other than an opener joined. */
  opened: boolean;
  last: number;
  /** The highest numeric JSON-RPC id seen: a client's next request is likely this + 1. */
  lastId: number | null;
}

export const SESSION_OPENERS: ReadonlySet<string> = new Set(["initialize", "server/discover"]);

/** The McpClient of an exchange, from the tap's connection and the request's headers and JSON body. */
export function mcpClientOf(connection: Connection | null | undefined, headers: ReadonlyArray<readonly [string, string]>, body: unknown): McpClient | undefined {
  if (!connection) return undefined;
  const stdio = connection.startsWith(STDIO_CONNECTION_PREFIX);
  const sessionId = headerValue(headers, "mcp-session-id");
  const id = isRecord(body) && typeof body.id === "number" ? body.id : undefined;
  // "127.0.0.1:54321" → "127.0.0.1", "::1:54321" → "::1": what a client's connections share.
  const remote = connection.replace(/:\d+$/, "");
  return {
    ...(id === undefined ? {} : { jsonrpcId: id }),
    connection,
    peer: stdio ? connection : `${remote} ${headerValue(headers, "user-agent") ?? ""}`,
    ...(sessionId ? { sessionId } : {}),
    ...(stdio ? { stdio } : {}),
  };
}

export class McpSessionGrouper {
  private sessions: Session[] = [];
  private readonly quietMs: number;
  private readonly ttlMs: number;
  private readonly maxSessions: number;

  constructor(private readonly opts: McpSessionOptions) {
    this.quietMs = opts.quietMs ?? 30_000;
    this.ttlMs = opts.ttlMs ?? 60 * 60_000;
    this.maxSessions = opts.maxSessions ?? 500;
  }

  /** The session trace of one message; `fresh` when the trace id was just made. */
  assign(client: McpClient, method: string | undefined, now: number): { traceId: string; fresh: boolean } {
    this.sessions = this.sessions.filter((s) => now - s.last <= this.ttlMs);
    const opener = method !== undefined && SESSION_OPENERS.has(method);
    let session = this.find(client, opener, now);
    const fresh = session === undefined;
    if (!session) {
      session = { traceId: this.opts.newTraceId(), peer: client.peer, connections: new Set(), sessionIds: new Set(), stdio: client.stdio === true, opened: false, last: now, lastId: null };
      this.sessions.push(session);
      if (this.sessions.length > this.maxSessions) this.sessions.shift();
    }
    if (fresh) {
      // A new session takes its connection over (a client reusing a kept-alive socket of an earlier one).
      for (const s of this.sessions) if (s !== session) s.connections.delete(client.connection);
    }
    session.connections.add(client.connection);
    if (client.sessionId) session.sessionIds.add(client.sessionId);
    if (!opener) session.opened = true;
    session.last = now;
    if (client.jsonrpcId !== undefined) session.lastId = Math.max(session.lastId ?? client.jsonrpcId, client.jsonrpcId);
    return { traceId: session.traceId, fresh };
  }

  private find(client: McpClient, opener: boolean, now: number): Session | undefined {
    const latest = (pick: (s: Session) => boolean) => this.sessions.filter(pick).sort((a, b) => b.last - a.last)[0];
    if (client.stdio) return latest((s) => s.connections.has(client.connection));
    if (client.sessionId) {
      const known = latest((s) => s.sessionIds.has(client.sessionId as string));
      if (known) return known;
    }
    const candidate = (s: Session) => !s.stdio && now - s.last <= this.quietMs && (s.connections.has(client.connection) || s.peer === client.peer);
    const id = client.jsonrpcId;
    // The session this request continues the id count of; else the connection's; else the peer's latest.
    const mine =
      (id === undefined ? undefined : latest((s) => candidate(s) && (s.lastId ?? -1) === id - 1)) ??
      latest((s) => candidate(s) && s.connections.has(client.connection)) ??
      latest(candidate);
    if (opener && mine?.opened) return undefined;
    return mine;
  }
}

/**
 * The name candidate of an exchange in a session trace ("MCP session: tools/call append") and its rank: the
 * trace keeps the first best one, so a session is named after its first tools/call, else its first other
 * request, else its opener.
 */
export function mcpSessionTitle(method: string | undefined, toolName: string | undefined, requestLine: string): { title: string; titleRank: number } {
  const what = method ? (toolName ? `${method} ${toolName}` : method) : requestLine;
  const rank = method === "tools/call" ? 0 : method && !SESSION_OPENERS.has(method) && !method.startsWith("notifications/") ? -1 : -2;
  return { title: `MCP session: ${what}`, titleRank: rank };
}
