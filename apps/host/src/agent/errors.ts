/**
 * The failures a learner can meet when asking the host, each with the HTTP status the host answers and a
 * message that says what to do. app.ts's one `onError` turns a HostError into `{ error, ... }`
 * (AgentErrorSchema); anything else is a bug and becomes a logged 500.
 *
 * Statuses (documented in apps/host/README.md):
 *   400 invalid /agent body            502 model server or MCP server unreachable, or answered badly
 *   404 unknown conversationId         422 the step guard stopped the loop (tool calls so far included)
 *   413 body over 1 MiB (routes/agent.ts)   403/415 refused by the guard (a foreign page, Host or type)
 */
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { AgentToolCall } from "@hopscope/shared/agent/schemas";

/** What the loop had done when it failed: the tool calls really ran, so the learner must see them. */
export interface AgentProgress {
  /** Present when the conversation is stored and can be continued. */
  conversationId?: string;
  steps: number;
  toolCalls: AgentToolCall[];
}

export class HostError extends Error {
  progress: AgentProgress | undefined;
  constructor(
    readonly status: ContentfulStatusCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = "HostError";
  }
}

/** Codes under which fetch() says there is no server at the URL at all (as opposed to one that failed). */
const NO_SERVER = new Set(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "EHOSTUNREACH", "ENETUNREACH", "EADDRNOTAVAIL"]);

export function isNoServer(err: unknown): boolean {
  for (let e: unknown = err; e instanceof Error; e = e.cause) {
    if (NO_SERVER.has(String((e as NodeJS.ErrnoException).code))) return true;
  }
  return false;
}

/** fetch() rejected: nothing listens at the URL, or the request broke (timeout, reset). */
export function modelUnreachable(url: string, cause: unknown): HostError {
  if (!isNoServer(cause)) return modelServerFailed(url, `the /api/chat request broke: ${describeCause(cause)}`, cause);
  return new HostError(
    502,
    `no model server at ${url}: start Ollama or run \`npm start\`, which starts the stand-in (${describeCause(cause)})`,
    { cause },
  );
}

/** Ollama answers 404 `model "x" not found, try pulling it first` for a model it does not have. */
export function modelNotPulled(model: string, url: string, serverMessage: string): HostError {
  return new HostError(
    502,
    `model ${model} is not pulled: run \`ollama pull ${model}\` (or set OLLAMA_MODEL to a model \`ollama list\` shows). ${url} said: ${serverMessage}`,
  );
}

export function modelServerFailed(url: string, detail: string, cause?: unknown): HostError {
  return new HostError(502, `the model server at ${url} failed: ${detail}`, { cause });
}

export function mcpUnreachable(url: string, cause: unknown): HostError {
  if (!isNoServer(cause)) return mcpFailed(url, `the request broke: ${describeCause(cause)}`, cause);
  return new HostError(
    502,
    `no MCP server at ${url} (MCP_URL): start it with \`npm run start -w apps/mcp-server\` or run \`npm start\` (${describeCause(cause)})`,
    { cause },
  );
}

export function mcpFailed(url: string, detail: string, cause?: unknown): HostError {
  return new HostError(502, `the MCP server at ${url} (MCP_URL) failed: ${detail}`, { cause });
}

export function stepGuardReached(maxSteps: number): HostError {
  return new HostError(
    422,
    `the agent did not finish within ${maxSteps} steps (AGENT_MAX_STEPS): the model kept asking for tools. ` +
      `The tool calls below did run. Rephrase the request, or raise AGENT_MAX_STEPS.`,
  );
}

export function unknownConversation(id: string): HostError {
  return new HostError(
    404,
    `conversationId "${id}" is unknown (the host keeps conversations in memory, so a restart or a long ` +
      `idle forgets them): leave conversationId out to start a new conversation`,
  );
}

/** The innermost reason fetch() gave, e.g. `connect ECONNREFUSED 127.0.0.1:11434`. */
function describeCause(err: unknown): string {
  let e: unknown = err;
  while (e instanceof Error && e.cause !== undefined) e = e.cause;
  return e instanceof Error ? e.message : String(e);
}
