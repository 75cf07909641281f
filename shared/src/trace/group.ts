/**
 * Grouping of exchanges into traces when a request carries no W3C `traceparent` (a foreign host, a bare
 * client). The rules, in order (documented in docs/architecture.md, "Trace grouping"):
 *
 * 1. `traceparent` header (or MCP `params._meta.traceparent`): the trace-id is the trace id.
 * 2. Model chat, in any dialect (compared as the native messages Ollama builds, see conversationOf): a request whose messages strictly extend an earlier request's messages (same roles and
 *    contents, in order, plus more) joins that request's trace: it is the next turn of the same conversation.
 *    Identical conversations running at once (two learners asking the same question) match each other's
 *    turns too; the wire tells them apart (see `pickTurn`): the same client address, then a turn not yet
 *    followed up, then the same client connection, then the latest.
 * 3. MCP `tools/call`: within `mcpWindowMs` after a model response that asked for a tool of that name
 *    (and that no tools/call has answered yet; the oldest, one asked from the caller's address first), it
 *    joins that model exchange's trace — unless it comes in an MCP session that began after the model asked
 *    and more than `lateSessionMs` (1 s) after the asking (another client, e.g. the MCP Inspector run a
 *    little later, calling a tool of the same name).
 * 4. MCP without traceparent from a known client connection: its MCP session's trace (group-mcp.ts).
 * 5. Anything else: a trace of its own.
 *
 * Coding agents' runs (group-run.ts) come between rules 1 and 2 for model requests: a request of an agent
 * session already seen joins its run; the first one of a session claims the run its probes and MCP
 * sessions opened. A probe joins its client's run; a new MCP session joins the unclaimed run on its machine.
 *
 * The grouper keeps a bounded, in-memory list of recent conversations (it is lost on restart, which only
 * means a conversation that spans a restart is split in two).
 */
import { isRecord } from "./json-text";
import { hashText } from "./request-line";
import { McpSessionGrouper, connectionAddress, type McpClientIdentity } from "./group-mcp";
import { toNative } from "../dialects/convert";
import { dialectOfPath, isChatDialect } from "../dialects/dialect";
import { TurnIndex } from "./turn-index";
import { RunIndex } from "./group-run";
import { RunClients, compareClients } from "./mcp-client-match";
import { isToolNamed, type AgentRequest, type ModelClient } from "./agent-run";
import type { z } from "zod";
import type { GroupedBySchema } from "./schemas";

export type GroupedBy = z.infer<typeof GroupedBySchema>;

/** The rules that join an agent's run (group-run.ts). */
export const RUN_RULES: readonly GroupedBy[] = ["agent-session", "tools-offered", "probe", "agent-start", "mcp-client"];

/**
 * A trace's grouping as its exchanges arrive: a lone exchange's trace becomes a conversation when a next turn
 * joins it, and a trace of one request, conversation or MCP session becomes a run when a run rule joins
 * anything to it (the first such rule names it). The store's upsert does the same in SQL (write-sql.ts).
 */
export function upgradeGrouping(current: GroupedBy, next: GroupedBy): GroupedBy {
  const plain = current === "single" || current === "session" || current === "conversation";
  if (plain && RUN_RULES.includes(next)) return next;
  return current === "single" && next === "conversation" ? "conversation" : current;
}

export interface GroupResult {
  traceId: string;
  groupedBy: GroupedBy;
  /** The trace id was just made ("single" always is): nothing of the trace is stored yet. */
  fresh?: boolean;
}

export interface GrouperOptions {
  newTraceId: () => string;
  /** How long after a model response a matching tools/call still joins its trace. */
  mcpWindowMs?: number;
  /**
   * A tools/call in an MCP session opened after the model asked joins the model's trace only if it came
   * within this long of the model's answer (an agent that connects per call does so at once).
   */
  lateSessionMs?: number;
  /** How long a conversation is remembered. */
  conversationTtlMs?: number;
  /** Bound on remembered conversations and pending tool calls (oldest dropped first). */
  maxEntries?: number;
}

interface Conversation {
  traceId: string;
  keys: string[];
  at: number;
  /** The client connection (`address:port`) the request came on, when the tap knows it. */
  connection: string | null;
  /** A later request already joined as this turn's follow-up. */
  followed: boolean;
}

interface PendingToolCall {
  traceId: string;
  name: string;
  at: number;
  /** The client address of the model request that asked (its agent calls the tool from the same machine). */
  address: string | null;
}

/**
 * One message reduced to what identifies it across turns: its role, and its content (tool calls re-serialise)
 * as a hash. The grouper remembers hundreds of turns, each with every message of its conversation; a coding
 * agent's messages start with a system prompt of many kilobytes, which kept whole would make those turns the
 * recorder's largest memory, and comparing them the slowest part of joining a turn.
 */
export function messageKey(m: unknown): string {
  if (!isRecord(m)) return hashText(JSON.stringify(m) ?? "");
  const role = typeof m.role === "string" ? m.role.toLowerCase() : "";
  const content = typeof m.content === "string" ? m.content : JSON.stringify(m.content ?? "");
  return `${role}\u0000${hashText(content)}`;
}

/**
 * The conversation a model request carries, as the native messages Ollama builds from it, so that a follow-up
 * turn joins its conversation in any dialect (Anthropic's tool_result blocks, OpenAI Responses' input items).
 * A body Ollama would refuse falls back to its own `messages`; null when the path is not a chat endpoint.
 */
export function conversationOf(path: string, body: unknown): unknown[] | null {
  const d = dialectOfPath(path);
  if (!d || !isChatDialect(d) || !isRecord(body)) return null;
  try {
    const native = toNative(d, body).native.messages;
    return Array.isArray(native) ? native : null;
  } catch {
    return Array.isArray(body.messages) ? body.messages : null;
  }
}

/** True when `later` strictly extends `earlier`: longer, and equal on every message of `earlier`. */
export function extendsMessages(earlier: readonly string[], later: readonly string[]): boolean {
  if (earlier.length === 0 || later.length <= earlier.length) return false;
  return earlier.every((k, i) => later[i] === k);
}

/** The client address of a connection (`address:port`, group-mcp.ts); null when the connection is unknown. */
function addressOf(connection: string | null): string | null {
  return connection ? connectionAddress(connection) : null;
}

/**
 * The turn a request continues, among the remembered requests whose messages it strictly extends: the
 * longest such (the latest turn of its conversation). Two identical conversations at once offer two equally
 * long ones; then, in order: the same client address (another machine is another learner); a turn nobody
 * followed up yet (each conversation's latest turn is followed once, so two conversations stay two traces
 * even when nothing else differs); the same client connection (a kept-alive client: undici, the SDKs); the
 * latest. A client that opens a connection per request still matches by the messages alone.
 */
function pickTurn(
  turns: TurnIndex<Conversation>,
  keys: readonly string[],
  connection: string | null,
): Conversation | undefined {
  // Only a shorter turn can be extended: the longest lengths first, and the first length with a match wins.
  for (let n = keys.length - 1; n >= 1; n--) {
    const best = pickAmong(turns.withLength(n), keys, connection);
    if (best) return best;
  }
  return undefined;
}

/** pickTurn's choice among the remembered turns given (all of one length, oldest first). */
function pickAmong(
  conversations: readonly Conversation[],
  keys: readonly string[],
  connection: string | null,
): Conversation | undefined {
  if (conversations.length === 0) return undefined;
  const address = addressOf(connection);
  const score = (c: Conversation) =>
    (address !== null && addressOf(c.connection) === address ? 4 : 0) +
    (c.followed ? 0 : 2) +
    (connection !== null && c.connection === connection ? 1 : 0);
  let best: Conversation | undefined;
  let bestScore = -1;
  for (const c of conversations) {
    if (!extendsMessages(c.keys, keys)) continue;
    const s = score(c);
    const longer = best === undefined || c.keys.length > best.keys.length;
    const tie = best !== undefined && c.keys.length === best.keys.length;
    if (longer || (tie && (s > bestScore || (s === bestScore && c.at >= (best as Conversation).at)))) {
      best = c;
      bestScore = s;
    }
  }
  return best;
}

export class FallbackGrouper {
  private readonly conversations = new TurnIndex<Conversation>();
  private pendingCalls: PendingToolCall[] = [];
  private readonly mcpWindowMs: number;
  private readonly ttlMs: number;
  private readonly maxEntries: number;
  private readonly mcpSessions: McpSessionGrouper;
  private readonly runs = new RunIndex();
  private readonly runClients = new RunClients();
  private expiredAt = -Infinity;

  constructor(private readonly opts: GrouperOptions) {
    this.mcpWindowMs = opts.mcpWindowMs ?? 30_000;
    this.ttlMs = opts.conversationTtlMs ?? 60 * 60_000;
    this.maxEntries = opts.maxEntries ?? 500;
    this.mcpSessions = new McpSessionGrouper({ newTraceId: opts.newTraceId, maxSessions: this.maxEntries });
  }

  /**
   * Remembers a chat request (whatever its grouping) so a later turn can join it, and returns the
   * trace for a request without traceparent.
   */
  assignModelChat(
    messages: readonly unknown[],
    now: number,
    known?: string | null,
    connection?: string | null,
    agent?: AgentRequest,
  ): GroupResult {
    this.expire(now);
    const keys = messages.map(messageKey);
    const from = connection ?? null;
    let result: GroupResult;
    if (known) result = { traceId: known, groupedBy: "traceparent" };
    else {
      const run = agent?.session ? this.runs.ofSession(agent.session, now) : undefined;
      const match = run === undefined ? pickTurn(this.conversations, keys, from) : undefined;
      if (match) match.followed = true;
      result =
        run !== undefined
          ? { traceId: run, groupedBy: "agent-session" }
          : match
            ? { traceId: match.traceId, groupedBy: "conversation" }
            : this.firstOfRun(agent, keys, now);
      if (match && agent?.session) this.runs.joinSession(match.traceId, agent.session, agent.client, now);
    }
    this.conversations.push({ traceId: result.traceId, keys, at: now, connection: from, followed: false });
    this.trim();
    return result;
  }

  /**
   * The first model request of an agent session (or one without a session that continues no conversation):
   * the unclaimed run its probes and MCP sessions opened, else a trace of its own (a run of its session).
   */
  private firstOfRun(agent: AgentRequest | undefined, keys: readonly string[], now: number): GroupResult {
    if (!agent) return { traceId: this.opts.newTraceId(), groupedBy: "single" };
    // Without a session id, the client's first question (its first user message) ties its side requests.
    const ask = agent.session === null ? keys.find((k) => k.startsWith("user\u0000")) : undefined;
    const asked = ask === undefined ? undefined : this.runs.ofAsk(agent.client.peer, ask, now);
    if (asked !== undefined) return { traceId: asked, groupedBy: "agent-session" };
    const traceId = this.opts.newTraceId();
    const session = agent.session ?? `trace:${traceId}`;
    const claimed = this.runs.claim(session, agent.client, agent.offered, now, agent.session !== null);
    if (claimed && ask !== undefined) this.runs.rememberAsk(claimed.traceId, agent.client.peer, ask);
    if (claimed) return { traceId: claimed.traceId, groupedBy: claimed.rule };
    if (agent.session) this.runs.openClaimed(traceId, agent.session, agent.client, now);
    return { traceId, groupedBy: "single" };
  }

  /** A probe of the model server (group-run.ts): its client's run, else an unclaimed run of its own. */
  assignProbe(client: ModelClient, session: string | null, now: number): GroupResult {
    const own = session ? this.runs.ofSession(session, now) : undefined;
    if (own !== undefined) return { traceId: own, groupedBy: "agent-session" };
    const run = this.runs.forProbe(client, now);
    if (run !== undefined) return { traceId: run, groupedBy: "probe" };
    const traceId = this.opts.newTraceId();
    this.runs.openUnclaimed(traceId, client.address, client.peer, now);
    return { traceId, groupedBy: "single" };
  }

  /**
   * The trace of a stdio server's session (`hopscope wrap`, on this machine) the first time it is seen:
   * the unclaimed run it joins (`agent-start`, `mcp-client`), else its own trace, an unclaimed run a model
   * request offering its tools can claim. `client`: the name its host gave (mcp-client-match.ts).
   */
  assignStdioSession(now: number, client: string | null = null): GroupResult {
    const run = this.joinMcpRun(null, now, false, client);
    if (run) return run;
    const traceId = this.opts.newTraceId();
    this.runs.openUnclaimed(traceId, null, null, now, "stdio");
    this.runClients.note(traceId, client);
    return { traceId, groupedBy: "session", fresh: true };
  }

  /** The MCP client a session of this trace named, known only after its first message (a stdio batch without it). */
  noteMcpClient(traceId: string, client: string | null): void {
    this.runClients.note(traceId, client);
  }

  /**
   * The unclaimed run a new MCP session joins, of a client that agrees with the run's: `mcp-client` when both
   * named the same client (within an agent's start), `agent-start` when one is unknown and the time alone
   * joined them.
   */
  private joinMcpRun(address: string | null, now: number, http: boolean, client: string | null) {
    const match = (traceId: string) => compareClients(this.runClients.of(traceId), client);
    const run = this.runs.forMcpSession(address, now, http, match);
    if (run === undefined) return undefined;
    const same = match(run) === "same";
    this.runClients.note(run, client);
    return { traceId: run, groupedBy: same ? "mcp-client" : "agent-start" } satisfies GroupResult;
  }

  /** The MCP tools a session of this trace listed: a model request offering them claims its run. */
  noteListedTools(traceId: string, names: readonly string[], now: number): void {
    this.runs.noteTools(traceId, names, now);
  }

  /** Notes the tool calls a model response asked for, so the tools/call that follows can join its trace. */
  noteToolCalls(traceId: string, names: readonly string[], now: number, connection?: string | null): void {
    const address = addressOf(connection ?? null);
    for (const name of names) this.pendingCalls.push({ traceId, name, at: now, address });
    this.trim();
  }

  /** Trace of an MCP request without traceparent; `client` (who sent it) groups it into its MCP session. */
  assignMcp(
    method: string | undefined,
    toolName: string | undefined,
    now: number,
    client?: McpClientIdentity,
  ): GroupResult {
    this.expire(now);
    // A wrapped stdio server's messages all come from its one host process: they stay in its session.
    if (method === "tools/call" && toolName !== undefined && !client?.stdio && this.pendingCalls.length > 0) {
      // The agent acting on the model's request is already talking to the MCP server (it listed the tools the
      // model was offered) or connects right away; a session begun later, well after, is someone else's.
      const began = client ? this.mcpSessions.sessionStart(client, now) : undefined;
      const lateSessionMs = this.opts.lateSessionMs ?? 1_000;
      const fits = (p: PendingToolCall) =>
        isToolNamed(p.name, toolName) &&
        now - p.at <= this.mcpWindowMs &&
        (began === undefined || began <= p.at || now - p.at <= lateSessionMs);
      // The oldest call asked for; from the caller's own machine first (two learners' identical agents at once).
      const from = client ? addressOf(client.connection) : null;
      const mine = from === null ? -1 : this.pendingCalls.findIndex((p) => p.address === from && fits(p));
      const i = mine !== -1 ? mine : this.pendingCalls.findIndex(fits);
      const hit = this.pendingCalls[i];
      if (hit) {
        this.pendingCalls.splice(i, 1);
        return { traceId: hit.traceId, groupedBy: "conversation" };
      }
    }
    if (client) return this.assignMcpSession(client, method, now);
    return { traceId: this.opts.newTraceId(), groupedBy: "single" };
  }

  /**
   * An MCP message in its session's trace; a new session joins the unclaimed run on its machine
   * (`agent-start`), or opens one, for the agent's first model request to claim.
   */
  private assignMcpSession(client: McpClientIdentity, method: string | undefined, now: number): GroupResult {
    const address = client.stdio ? null : addressOf(client.connection);
    const name = client.clientName ?? null;
    let joined: GroupResult | undefined;
    const { traceId, fresh } = this.mcpSessions.assign(client, method, now, () => {
      joined = this.joinMcpRun(address, now, !client.stdio, name);
      return joined?.traceId ?? this.opts.newTraceId();
    });
    if (joined) return joined;
    if (fresh) this.runs.openUnclaimed(traceId, address, null, now, client.stdio ? "stdio" : "http");
    this.runClients.note(traceId, name);
    return { traceId, groupedBy: "session", fresh };
  }

  /** A tools/call grouped by traceparent still answers a pending call; forget it so a later one does not join. */
  consumeToolCall(traceId: string, toolName: string): void {
    const i = this.pendingCalls.findIndex((p) => p.traceId === traceId && p.name === toolName);
    if (i !== -1) this.pendingCalls.splice(i, 1);
  }

  /**
   * Expired entries are dropped at most once a second, as MCP sessions are: filtering both lists on every
   * request cost more than matching against them. Matching checks the tool-call window itself; a
   * conversation an hour old may stay matchable for up to a second longer.
   */
  private expire(now: number): void {
    if (now - this.expiredAt <= 1000 && now >= this.expiredAt) return;
    this.expiredAt = now;
    this.conversations.retain((c) => now - c.at <= this.ttlMs);
    this.pendingCalls = this.pendingCalls.filter((p) => now - p.at <= this.mcpWindowMs);
  }

  private trim(): void {
    this.conversations.trim(this.maxEntries);
    if (this.pendingCalls.length > this.maxEntries)
      this.pendingCalls.splice(0, this.pendingCalls.length - this.maxEntries);
  }
}
