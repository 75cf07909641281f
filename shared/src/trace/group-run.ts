/**
 * Runs: everything one agent does for one question, as one trace (docs/recorder.md, "Trace grouping").
 * An agent starts by probing the model server and opening its MCP sessions, then sends its model requests,
 * each carrying its session id. So a run is opened by whichever comes first:
 *
 * - a model request opens a run claimed by its agent session (or, without one, by itself); every later
 *   request of that session joins it (`agent-session`): retries, side requests, the next turns;
 * - a probe or an MCP session opens an unclaimed run on its machine; within `windowMs` a probe of the same
 *   client (address and User-Agent) or of a run no other client has probed joins it (`probe`), an MCP
 *   session on the same machine joins it as the agent starts (`agent-start`: within 10 s of a probe's run or
 *   of the run an agent's first model request opened, 1.5 s of an MCP session's of the other transport (HTTP
 *   and stdio), and never a run that has an HTTP session already: an agent opens one per
 *   server, and the MCP tap is one server), and the first model request that offers the
 *   tools its MCP sessions listed (`tools-offered`), or comes from the client that probed (`probe`),
 *   claims it for its session.
 *
 * Two agents at once stay apart by their session ids, by the clients that probed and by the tools their
 * MCP sessions listed; two MCP clients by the names they give (mcp-client-match.ts). Limit: two agents started on
 * one machine within the same moment, before either sent a model request, can share their MCP sessions' run
 * when neither names its client. The memory is bounded and lost on restart.
 */
import { offersToolsOf, type ModelClient } from "./agent-run";
import type { ClientMatch } from "./mcp-client-match";

export type RunRule = "agent-session" | "tools-offered" | "probe" | "agent-start";

interface Run {
  traceId: string;
  /** The agent session that claimed it (null: opened by a probe or an MCP session, not claimed yet). */
  session: string | null;
  /** The machine it runs on (the clients' address). */
  address: string | null;
  /** Clients (address and User-Agent) that probed the model server or asked the model in this run. */
  peers: Set<string>;
  /** MCP tools its sessions listed, by their MCP names. */
  tools: Set<string>;
  /** An MCP session over HTTP (through the one MCP tap) is in it: an agent opens one per server. */
  httpMcp: boolean;
  /** A wrapped stdio server's session is in it. */
  stdioMcp: boolean;
  started: number;
  last: number;
}

export class RunIndex {
  private runs: Run[] = [];
  private readonly bySession = new Map<string, Run>();
  private readonly byTrace = new Map<string, Run>();
  private readonly byAsk = new Map<string, Run>();

  constructor(
    private readonly windowMs = 30_000,
    private readonly probeStartMs = 10_000,
    private readonly burstMs = 1_500,
    private readonly ttlMs = 60 * 60_000,
    private readonly maxRuns = 500,
  ) {}

  /** The run of an agent session already seen. */
  ofSession(session: string, now: number): string | undefined {
    const run = this.bySession.get(session);
    if (!run || now - run.last > this.ttlMs) return undefined;
    run.last = now;
    return run.traceId;
  }

  /**
   * An unclaimed run a new session's first model request takes over: one whose MCP sessions listed tools it
   * offers, or that its own client probed (both: first); the oldest of equals. `named`: the request names an
   * agent session, so it may also take the run its agent's MCP sessions opened on the machine when it offers
   * none of their tools (a side request, such as a title's, sent first).
   */
  claim(
    session: string,
    client: ModelClient,
    offered: () => readonly string[],
    now: number,
    named: boolean,
  ): { traceId: string; rule: RunRule } | undefined {
    let best: Run | undefined;
    let bestScore = named ? -1 : 0;
    let names: readonly string[] | undefined;
    for (const r of this.runs) {
      if (r.session !== null || !sameMachine(r.address, client.address) || now - r.last > this.windowMs) continue;
      const probedByOther = r.peers.size > 0 && (client.peer === null || !r.peers.has(client.peer));
      const score =
        (r.tools.size > 0 && offersToolsOf((names ??= offered()), [...r.tools]) ? 2 : 0) +
        (client.peer !== null && r.peers.has(client.peer) ? 1 : probedByOther ? -2 : 0);
      if (score > bestScore) {
        best = r;
        bestScore = score;
      }
    }
    if (!best) return undefined;
    this.bind(best, session, client, now);
    return {
      traceId: best.traceId,
      rule: bestScore >= 2 ? "tools-offered" : bestScore === 1 ? "probe" : "agent-start",
    };
  }

  /**
   * The run a request without a session id joins when the same client asked the same first question in it
   * (within the window): a side request of an agent that names no session, such as Qwen Code's memory
   * subagent. `ask` is the first user message; remembered by `rememberAsk` for runs such a request claimed.
   */
  ofAsk(peer: string | null, ask: string, now: number): string | undefined {
    const run = peer === null ? undefined : this.byAsk.get(`${peer}\u0000${ask}`);
    if (!run || now - run.last > this.windowMs || this.byTrace.get(run.traceId) !== run) return undefined;
    run.last = now;
    return run.traceId;
  }

  rememberAsk(traceId: string, peer: string | null, ask: string): void {
    const run = this.byTrace.get(traceId);
    if (!run || peer === null) return;
    this.byAsk.set(`${peer}\u0000${ask}`, run);
    if (this.byAsk.size > this.maxRuns) this.byAsk.delete(this.byAsk.keys().next().value as string);
  }

  /** Opens a run claimed by `session` (a model request that found none to join). */
  openClaimed(traceId: string, session: string, client: ModelClient, now: number): void {
    this.bind(this.open(traceId, client.address, now), session, client, now);
  }

  /** Remembers that a model request of `session` went into a trace chosen otherwise (a conversation's). */
  joinSession(traceId: string, session: string, client: ModelClient, now: number): void {
    const run = this.byTrace.get(traceId) ?? this.open(traceId, client.address, now);
    if (run.session === null) this.bind(run, session, client, now);
    else if (!this.bySession.has(session)) this.bySession.set(session, run);
  }

  /**
   * The run a probe joins: the latest one of the same client within the window (claimed or not), else an
   * unclaimed one on its machine that no other client probed. Undefined: it opens one (see openUnclaimed).
   */
  forProbe(client: ModelClient, now: number): string | undefined {
    let own: Run | undefined;
    let free: Run | undefined;
    for (const r of this.runs) {
      if (!sameMachine(r.address, client.address) || now - r.last > this.windowMs) continue;
      if (client.peer !== null && r.peers.has(client.peer)) own = r;
      else if (r.session === null && r.peers.size === 0) free = r;
    }
    const run = own ?? free;
    if (!run) return undefined;
    if (client.peer !== null) run.peers.add(client.peer);
    run.last = now;
    return run.traceId;
  }

  /**
   * The run a new MCP session on `address` (null: a stdio server on this machine) joins, the latest of: one an
   * agent's probe or first model request opened in the last `probeStartMs`, or one another MCP session opened in the last
   * `burstMs` (an agent connects to all its servers at once as it starts; MCP clients run one after another,
   * such as two Inspector runs, start seconds apart and stay apart). `client`: how the session's client compares
   * with the run's (mcp-client-match.ts): never another client's run; the same client's as an agent's start.
   */
  forMcpSession(
    address: string | null,
    now: number,
    http: boolean,
    client: (traceId: string) => ClientMatch = () => "unknown",
  ): string | undefined {
    let run: Run | undefined;
    for (const r of this.runs) {
      if ((http && r.httpMcp) || !sameMachine(r.address, address)) continue;
      const match = client(r.traceId);
      if (match === "other") continue;
      // A claimed run whose agent asked the model first (a title request) and connects its servers after.
      const agent = r.peers.size > 0;
      // Without a probe or a model request, only a session of the other transport joins (an agent starting
      // its HTTP and stdio servers together); MCP clients of one kind run one after another stay apart.
      if (!agent && !(http ? r.stdioMcp : r.httpMcp)) continue;
      if (now - r.started <= (agent || match === "same" ? this.probeStartMs : this.burstMs)) run = r;
    }
    if (!run) return undefined;
    run.last = now;
    run.httpMcp ||= http;
    run.stdioMcp ||= !http;
    return run.traceId;
  }

  /**
   * Opens an unclaimed run (a probe's trace, or an MCP session's: `http` for one through the MCP tap), for the
   * agent's model request to claim.
   */
  openUnclaimed(
    traceId: string,
    address: string | null,
    peer: string | null,
    now: number,
    mcp: "http" | "stdio" | null = null,
  ): void {
    if (this.byTrace.has(traceId)) return;
    const run = this.open(traceId, address, now);
    if (peer !== null) run.peers.add(peer);
    run.httpMcp = mcp === "http";
    run.stdioMcp = mcp === "stdio";
  }

  /** The MCP tools a session of this trace listed (tools/list), so a model request offering them finds it. */
  noteTools(traceId: string, names: readonly string[], now: number): void {
    const run = this.byTrace.get(traceId);
    if (!run) return;
    for (const n of names) run.tools.add(n);
    run.last = now;
  }

  private open(traceId: string, address: string | null, now: number): Run {
    this.expire(now);
    const run: Run = {
      traceId,
      session: null,
      address,
      peers: new Set(),
      tools: new Set(),
      httpMcp: false,
      stdioMcp: false,
      started: now,
      last: now,
    };
    this.runs.push(run);
    this.byTrace.set(traceId, run);
    if (this.runs.length > this.maxRuns) this.drop(this.runs.splice(0, this.runs.length - this.maxRuns));
    return run;
  }

  private bind(run: Run, session: string, client: ModelClient, now: number): void {
    run.session = session;
    run.last = now;
    if (client.peer !== null) run.peers.add(client.peer);
    this.bySession.set(session, run);
  }

  private expire(now: number): void {
    const gone = this.runs.filter((r) => now - r.last > this.ttlMs);
    if (gone.length === 0) return;
    this.runs = this.runs.filter((r) => now - r.last <= this.ttlMs);
    this.drop(gone);
  }

  private drop(gone: Run[]): void {
    const set = new Set(gone);
    for (const r of gone) this.byTrace.delete(r.traceId);
    for (const [k, r] of this.bySession) if (set.has(r)) this.bySession.delete(k);
  }
}

/** True for this machine's own addresses, as a tap sees them (a stdio server wrapped here is null). */
function isLocal(address: string | null): boolean {
  return address === null || address === "::1" || address.startsWith("127.") || address.startsWith("::ffff:127.");
}

/** Two clients on one machine: the same address, or both this machine's. */
function sameMachine(a: string | null, b: string | null): boolean {
  return a === b || (isLocal(a) && isLocal(b));
}
