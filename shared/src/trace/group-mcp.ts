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
 * A session goes on in a new trace after `maxPerSession` messages (a load test, a host left running for days).
 *
 * A new session takes over the connection it arrived on from any earlier session.
 *
 * Limits: two clients on one machine with the same User-Agent, talking at the same time over new
 * connections, can be mixed up (openers and kept-alive connections still tell them apart), and so can
 * two clients of one process sharing a connection pool; a stateless client quiet for longer than
 * `quietMs` starts a new trace. The memory is bounded and lost on restart.
 */
import { headerValue, isRecord } from "./json-text";
import { mcpClientName } from "./mcp-client-match";

/** Who sent an MCP message: what the tap knows about the client's end of the wire. */
export interface McpClientIdentity {
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
  /** The name the client gives itself (mcp-client-match.ts), when the message carries one. */
  clientName?: string;
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
  /** A session this long continues in a new trace (load tests, a host left running for days). */
  maxPerSession?: number;
}

/** Bound on remembered connections (oldest forgotten first). */
const MAX_CONNECTIONS = 10_000;

interface Session {
  traceId: string;
  peer: string;
  stdio: boolean;
  /** True once a message other than an opener joined. */
  opened: boolean;
  last: number;
  /** When its first message came. */
  started: number;
  /** The highest numeric JSON-RPC id seen: a client's next request is likely this + 1. */
  lastId: number | null;
  /** Messages in the session's current trace. */
  count: number;
}

const NO_SESSIONS: readonly Session[] = [];

export const SESSION_OPENERS: ReadonlySet<string> = new Set(["initialize", "server/discover"]);

/** "127.0.0.1:54321" → "127.0.0.1", "::1:54321" → "::1": what a client's connections share (else the whole of it). */
export function connectionAddress(connection: Connection): string {
  const colon = connection.lastIndexOf(":");
  return colon > 0 && /^\d+$/.test(connection.slice(colon + 1)) ? connection.slice(0, colon) : connection;
}

/** Who sent an exchange (its McpClientIdentity), from the tap's connection and the request's headers and JSON body. */
export function mcpClientOf(
  connection: Connection | null | undefined,
  headers: ReadonlyArray<readonly [string, string]> | string,
  body: unknown,
): McpClientIdentity | undefined {
  if (!connection) return undefined;
  const stdio = connection.startsWith(STDIO_CONNECTION_PREFIX);
  const sessionId = headerValue(headers, "mcp-session-id");
  const id = isRecord(body) && typeof body.id === "number" ? body.id : undefined;
  const remote = connectionAddress(connection);
  // One object literal, optional fields set or absent: built per MCP exchange, on the recording thread.
  const client: McpClientIdentity = {
    connection,
    peer: stdio ? connection : `${remote} ${headerValue(headers, "user-agent") ?? ""}`,
  };
  if (id !== undefined) client.jsonrpcId = id;
  if (sessionId) client.sessionId = sessionId;
  if (stdio) client.stdio = true;
  const name = mcpClientName(body);
  if (name !== null) client.clientName = name;
  return client;
}

export class McpSessionGrouper {
  /** Sessions in the order they were opened (the oldest is dropped first). */
  private sessions: Session[] = [];
  /** Each connection belongs to one session: the latest that used it. */
  private readonly byConnection = new Map<string, Session>();
  private readonly bySessionId = new Map<string, Session>();
  /** A peer's sessions, oldest first. */
  private readonly byPeer = new Map<string, Session[]>();
  private readonly quietMs: number;
  private readonly ttlMs: number;
  private readonly maxSessions: number;
  private readonly maxPerSession: number;
  private expiredAt = -Infinity;

  constructor(private readonly opts: McpSessionOptions) {
    this.quietMs = opts.quietMs ?? 30_000;
    this.ttlMs = opts.ttlMs ?? 60 * 60_000;
    this.maxSessions = opts.maxSessions ?? 500;
    this.maxPerSession = opts.maxPerSession ?? 5000;
  }

  /** The session trace of one message; `fresh` when the trace id was just made. */
  assign(
    client: McpClientIdentity,
    method: string | undefined,
    now: number,
    traceIdForNew: () => string = this.opts.newTraceId,
  ): { traceId: string; fresh: boolean } {
    this.expire(now);
    const opener = method !== undefined && SESSION_OPENERS.has(method);
    let session = this.find(client, opener, now);
    let fresh = session === undefined;
    if (!session) {
      session = {
        traceId: traceIdForNew(),
        peer: client.peer,
        stdio: client.stdio === true,
        opened: false,
        last: now,
        started: now,
        lastId: null,
        count: 0,
      };
      this.sessions.push(session);
      const mates = this.byPeer.get(session.peer);
      if (mates) mates.push(session);
      else this.byPeer.set(session.peer, [session]);
      if (this.sessions.length > this.maxSessions)
        this.drop(this.sessions.splice(0, this.sessions.length - this.maxSessions));
    } else if (session.count >= this.maxPerSession) {
      session.traceId = this.opts.newTraceId();
      session.count = 0;
      fresh = true;
    }
    session.count++;
    // A new session takes its connection over (a client reusing a kept-alive socket of an earlier one).
    if (this.byConnection.get(client.connection) !== session) {
      this.byConnection.delete(client.connection);
      this.byConnection.set(client.connection, session);
      if (this.byConnection.size > MAX_CONNECTIONS)
        this.byConnection.delete(this.byConnection.keys().next().value as string);
    }
    if (client.sessionId) this.bySessionId.set(client.sessionId, session);
    if (!opener) session.opened = true;
    session.last = now;
    if (client.jsonrpcId !== undefined) session.lastId = Math.max(session.lastId ?? client.jsonrpcId, client.jsonrpcId);
    return { traceId: session.traceId, fresh };
  }

  /** When the session a (non-opening) message of `client` would join began, or undefined when it would open one. */
  sessionStart(client: McpClientIdentity, now: number): number | undefined {
    return this.find(client, false, now)?.started;
  }

  private find(client: McpClientIdentity, opener: boolean, now: number): Session | undefined {
    const own = this.alive(this.byConnection.get(client.connection), now);
    if (client.stdio) return own;
    const known = client.sessionId ? this.alive(this.bySessionId.get(client.sessionId), now) : undefined;
    if (known) return known;
    // The session this request continues the id count of; else the connection's; else the peer's latest.
    const { continued, latest } = this.candidates(client, own, now);
    const mine = continued ?? this.recent(own, now) ?? latest;
    if (opener && mine?.opened) return undefined;
    return mine;
  }

  /**
   * Among the peer's recent sessions (and the connection's own, when another peer holds it): the latest, and
   * the latest whose last id is one below this request's.
   */
  private candidates(
    client: McpClientIdentity,
    own: Session | undefined,
    now: number,
  ): { continued: Session | undefined; latest: Session | undefined } {
    const id = client.jsonrpcId;
    let continued: Session | undefined;
    let latest: Session | undefined;
    const mates = this.byPeer.get(client.peer) ?? NO_SESSIONS;
    const last = own && own.peer !== client.peer ? mates.length : mates.length - 1;
    for (let i = 0; i <= last; i++) {
      const s = this.recent(i < mates.length ? mates[i] : own, now);
      if (!s) continue;
      if (!latest || s.last > latest.last) latest = s;
      if (id !== undefined && (s.lastId ?? -1) === id - 1 && (!continued || s.last > continued.last)) continued = s;
    }
    return { continued, latest };
  }

  private alive(s: Session | undefined, now: number): Session | undefined {
    return s && now - s.last <= this.ttlMs ? s : undefined;
  }

  private recent(s: Session | undefined, now: number): Session | undefined {
    return s && !s.stdio && now - s.last <= this.quietMs ? s : undefined;
  }

  /** Expired sessions are dropped at most once a second: the lists are scanned per message, not rebuilt. */
  private expire(now: number): void {
    if (now - this.expiredAt <= 1000 && now >= this.expiredAt) return;
    this.expiredAt = now;
    const gone = this.sessions.filter((s) => now - s.last > this.ttlMs);
    if (gone.length === 0) return;
    this.sessions = this.sessions.filter((s) => now - s.last <= this.ttlMs);
    this.drop(gone);
  }

  private drop(gone: Session[]): void {
    const set = new Set(gone);
    for (const [k, s] of this.byConnection) if (set.has(s)) this.byConnection.delete(k);
    for (const [k, s] of this.bySessionId) if (set.has(s)) this.bySessionId.delete(k);
    for (const s of gone) {
      const mates = this.byPeer.get(s.peer)?.filter((m) => !set.has(m)) ?? [];
      if (mates.length > 0) this.byPeer.set(s.peer, mates);
      else this.byPeer.delete(s.peer);
    }
  }
}

/**
 * The name candidate of an exchange in a session trace ("MCP session: tools/call append") and its rank: the
 * trace keeps the first best one, so a session is named after its first tools/call, else its first other
 * request, else its opener, else its first line (stderr, an exit).
 */
export function mcpSessionTitle(
  method: string | undefined,
  toolName: string | undefined,
  requestLine: string,
): { title: string; titleRank: number } {
  const what = method ? (toolName ? `${method} ${toolName}` : method) : requestLine;
  // A line that is no JSON-RPC message (a stdio server's stderr, its exit, a GET stream) names nothing.
  const rank =
    method === "tools/call"
      ? 0
      : method && !SESSION_OPENERS.has(method) && !method.startsWith("notifications/")
        ? -1
        : method
          ? -2
          : -3;
  return { title: `MCP session: ${what}`, titleRank: rank };
}
