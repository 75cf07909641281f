/**
 * Which MCP client opened a session, and whether two sessions' clients may be one agent
 * (docs/recorder.md, "Agent runs"). A client names itself in its `initialize` (`params.clientInfo`), and in
 * the stateless 2026-07-28 revision on every request (`params._meta["io.modelcontextprotocol/clientInfo"]`,
 * a SHOULD: a request may name none, mcp-2026-07-28 "Per-request and per-response `_meta`"). An agent names
 * itself alike to all its servers, over HTTP and stdio (Claude Code `claude-code`, Codex `codex-mcp-client`,
 * opencode `opencode`), or adds the server's name after its client's (Qwen Code
 * `qwen-cli-mcp-client-<server>`); two other names are two clients, even when they start in the same moment on
 * one machine.
 */
import { isRecord } from "./json-text";

const META_CLIENT_INFO = "io.modelcontextprotocol/clientInfo";

/** Bound on remembered runs' clients (oldest forgotten first), as many as the runs remembered. */
const MAX_RUNS = 500;

/** The longest client name kept: a name is self-reported, and only compared. */
const MAX_NAME_CHARS = 200;

/** The client name an MCP message carries (its `initialize` clientInfo or its request `_meta`); null: none. */
export function mcpClientName(body: unknown): string | null {
  const params = isRecord(body) && isRecord(body.params) ? body.params : undefined;
  if (!params) return null;
  const meta = isRecord(params._meta) ? params._meta[META_CLIENT_INFO] : undefined;
  const info = isRecord(params.clientInfo) ? params.clientInfo : meta;
  const name = isRecord(info) && typeof info.name === "string" ? info.name.trim() : "";
  return name === "" ? null : name.slice(0, MAX_NAME_CHARS);
}

/** A client name without the server name an agent adds after its own: `qwen-cli-mcp-client-notes` → `qwen-cli-mcp-client`. */
export function clientFamily(name: string): string {
  const perServer = /^(.*?client)[-_.:]./i.exec(name);
  return perServer?.[1] ?? name;
}

/** How a session's client compares with a run's: the same client, another, or one of them unknown (time alone decides). */
export type ClientMatch = "same" | "unknown" | "other";

export function compareClients(run: string | null, session: string | null): ClientMatch {
  if (run === null || session === null) return "unknown";
  return clientFamily(run) === clientFamily(session) ? "same" : "other";
}

/**
 * The MCP client each run's sessions named, by trace id: a new session joins a run only when its client agrees
 * (compareClients), and the run remembers the first name one of its sessions gave (`note`).
 */
export class RunClients {
  private readonly byTrace = new Map<string, string>();

  /** The client the run's sessions named (null: none named one yet). */
  of(traceId: string): string | null {
    return this.byTrace.get(traceId) ?? null;
  }

  /** Remembers the run's client when it has none yet (a session's later message may be the first to name it). */
  note(traceId: string, client: string | null): void {
    if (client === null || this.byTrace.has(traceId)) return;
    this.byTrace.set(traceId, client);
    if (this.byTrace.size > MAX_RUNS) this.byTrace.delete(this.byTrace.keys().next().value as string);
  }
}
