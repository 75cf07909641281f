/**
 * What a coding agent's requests say about the run they belong to (docs/recorder.md, "Trace grouping"):
 * the session id it sends with every model request, whether a request is a probe of the model server,
 * which tools it offers the model (and which MCP tool each of them is), and the learner's question inside
 * the boilerplate the agent wraps around it. Pure functions of headers and bodies.
 */
import { headerValue, isRecord } from "./json-text";
import { connectionAddress } from "./group-mcp";
import { findResponse } from "./classify-mcp";
import { SIDE_REQUEST_WORDING } from "./request-line";

/** Who sent a model-server request: its machine, and the client on it (address and User-Agent). */
export interface ModelClient {
  address: string | null;
  peer: string | null;
}

/** What a model request says of the agent that sent it, for its run (group-run.ts). */
export interface AgentRequest {
  /** The agent session it names (agentSessionOf); null when it names none. */
  session: string | null;
  client: ModelClient;
  /** The tools it offers the model (offeredToolNames), and the MCP tools it names in its text (asked once). */
  offered: () => readonly string[];
}

type Headers = ReadonlyArray<readonly [string, string]> | string;

/**
 * Headers agents put on every model request of one session: Claude Code's `X-Claude-Code-Session-Id`,
 * Codex's `session-id` / `session_id` and `thread-id` (its conversation), opencode's `x-session-id`.
 */
const SESSION_HEADERS = ["x-claude-code-session-id", "session-id", "session_id", "thread-id", "x-session-id"];

/** Claude Code's `metadata.user_id`: "user_<hash>_account_<uuid>_session_<uuid>"; the session is the last part. */
const CLAUDE_USER_ID_SESSION = /_session_([0-9a-f-]{8,})$/i;

/**
 * The agent session a request belongs to, from its headers, else from its body (Claude Code's
 * `metadata.user_id`, Qwen Code's `metadata.sessionId`, Codex's `prompt_cache_key`, the conversation id
 * it caches the prompt by); null when it names none.
 */
export function agentSessionOf(headers: Headers, body: unknown): string | null {
  for (const name of SESSION_HEADERS) {
    const v = headerValue(headers, name)?.trim();
    if (v) return v;
  }
  if (!isRecord(body)) return null;
  const meta = isRecord(body.metadata) ? body.metadata : undefined;
  if (meta) {
    for (const key of ["sessionId", "session_id"]) {
      const v = meta[key];
      if (typeof v === "string" && v.trim() !== "") return v.trim();
    }
    const user = typeof meta.user_id === "string" ? CLAUDE_USER_ID_SESSION.exec(meta.user_id) : null;
    if (user?.[1]) return user[1];
  }
  return typeof body.prompt_cache_key === "string" && body.prompt_cache_key !== "" ? body.prompt_cache_key : null;
}

/**
 * A probe of the model server: what an agent asks before (or beside) its chat requests to learn which models
 * there are and what they can do (Ollama's `/api/tags`, `/api/version`, `/api/show`, `/api/ps`, OpenAI's
 * `GET /v1/models`, a `HEAD /`).
 */
export function isModelProbe(method: string, path: string): boolean {
  const m = method.toUpperCase();
  if (m === "POST") return path === "/api/show";
  if (m !== "GET" && m !== "HEAD") return false;
  return (
    path === "/" ||
    path === "/api/tags" ||
    path === "/api/version" ||
    path === "/api/ps" ||
    path === "/v1/models" ||
    path.startsWith("/v1/models/")
  );
}

/**
 * The tool names a model request offers, in every dialect: OpenAI's `function.name`, Anthropic's and the
 * Responses API's `name`, and the tools nested in a Responses `namespace` tool (Codex's `mcp__notes` holding
 * `append`), given as `<namespace>__<tool>`.
 */
export function offeredToolNames(body: unknown): string[] {
  if (!isRecord(body) || !Array.isArray(body.tools)) return [];
  const out: string[] = [];
  for (const t of body.tools as unknown[]) {
    if (!isRecord(t)) continue;
    const fn = isRecord(t.function) ? t.function : undefined;
    const name = typeof fn?.name === "string" ? fn.name : typeof t.name === "string" ? t.name : undefined;
    if (t.type === "namespace" && Array.isArray(t.tools)) {
      for (const inner of offeredToolNames({ tools: t.tools })) out.push(name ? `${name}__${inner}` : inner);
    } else if (name) out.push(name);
  }
  return out;
}

/**
 * True when a tool the model was offered (or called) is the MCP tool `bare`, as agents name MCP tools:
 * itself, `mcp__<server>__<tool>` (Claude Code, Qwen Code, Codex's namespaces), `<server>_<tool>`
 * (opencode), `<server>__<tool>`, or `mcp__<server>.<tool>` (Ollama's name for a Responses namespace's tool).
 */
export function isToolNamed(offered: string, bare: string): boolean {
  if (offered === bare) return true;
  if (!offered.endsWith(bare) || offered.length <= bare.length) return false;
  const before = offered.slice(0, offered.length - bare.length);
  return (before.endsWith("_") || before.endsWith(".")) && before.length > 1;
}

/** True when some offered tool is one of the MCP tools `bare` (an agent offering the session's tools). */
export function offersToolsOf(offered: readonly string[], bare: readonly string[]): boolean {
  return bare.some((b) => offered.some((o) => isToolNamed(o, b)));
}

/**
 * Blocks agents inject into the learner's turn: Claude Code's `<system-reminder>`s, Codex's
 * `<environment_context>` and `<user_instructions>` (AGENTS.md), and the like under other tag names.
 */
const INJECTED_BLOCKS =
  /<(system-reminder|environment_context|user_instructions|environment|context|instructions|project_context)>[\s\S]*?<\/\1>/gi;

/**
 * The learner's own words in a user message: injected blocks removed, a side request's instruction
 * removed, whitespace kept as sent (the caller clips it).
 */
export function learnerText(content: string): string {
  let text = content.replace(INJECTED_BLOCKS, "");
  for (const [wording] of SIDE_REQUEST_WORDING) text = text.replace(wording, "");
  text = text.trim();
  // A side request quoting the question ("\"Add buy milk to my notes\"", opencode's title request).
  const quoted = /^"([^"]+)"$/.exec(text);
  return quoted?.[1] ?? text;
}

/**
 * What a model request (or probe) says of the agent that sent it, for its run (group-run.ts). `whole`: the
 * body with its tools, when `body` leaves them out (read only if the tools it offers are asked for).
 */
export function agentRequestOf(
  connection: string | null | undefined,
  headers: Headers,
  body: unknown,
  whole: () => unknown = () => body,
): AgentRequest {
  const address = connection ? connectionAddress(connection) : null;
  const ua = headerValue(headers, "user-agent") ?? "";
  return {
    session: agentSessionOf(headers, body),
    client: { address, peer: address === null ? null : `${address} ${ua}` },
    offered: () => [...offeredToolNames(whole()), ...mentionedMcpTools(whole())],
  };
}

/** `mcp__<server>__<tool>` names in a request's text: the deferred tools an agent lists in words (Qwen Code). */
const MCP_TOOL_NAME = /\bmcp__[A-Za-z0-9-]+__[A-Za-z0-9_-]+/g;

function mentionedMcpTools(body: unknown): string[] {
  return isRecord(body) ? [...new Set(JSON.stringify(body).match(MCP_TOOL_NAME) ?? [])] : [];
}

/** The tool names a `tools/list` answer lists (JSON or SSE); empty when it lists none. */
export function listedToolNames(responseText: string | null): string[] {
  const response = findResponse(responseText, undefined, undefined);
  const result = isRecord(response) && isRecord(response.result) ? response.result : undefined;
  if (!result || !Array.isArray(result.tools)) return [];
  return result.tools.flatMap((t: unknown) => (isRecord(t) && typeof t.name === "string" ? [t.name] : []));
}
