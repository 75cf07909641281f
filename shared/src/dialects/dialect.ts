/**
 * The client dialects Ollama serves besides its native API, which endpoint each one is, and the Ollama
 * release that added it (server/routes.go; tags found with `git tag --contains` on the commit that added
 * each route). Every dialect is converted into a native request before anything is rendered.
 */
import { atLeast } from "../prompt/version";

export type Dialect =
  "ollama" | "ollama-generate" | "openai-chat" | "openai-completions" | "openai-responses" | "anthropic";

/** The request path of each dialect's generating endpoint. */
export const DIALECT_PATHS: Record<Dialect, string> = {
  ollama: "/api/chat",
  "ollama-generate": "/api/generate",
  "openai-chat": "/v1/chat/completions",
  "openai-completions": "/v1/completions",
  "openai-responses": "/v1/responses",
  anthropic: "/v1/messages",
};

/** First Ollama release serving each `/v1` path (`/v1/models/:model` goes with `/v1/models`). */
export const ENDPOINT_SINCE: Record<string, string> = {
  "/v1/chat/completions": "0.1.24",
  "/v1/completions": "0.2.0",
  "/v1/models": "0.2.0",
  "/v1/responses": "0.13.3",
  "/v1/messages": "0.14.0",
};

/** Short names people use for a dialect (the host's AGENT_DIALECT, the UI's labels). */
export const DIALECT_LABELS: Record<Dialect, string> = {
  ollama: "Ollama /api/chat",
  "ollama-generate": "Ollama /api/generate",
  "openai-chat": "OpenAI Chat Completions",
  "openai-completions": "OpenAI Completions",
  "openai-responses": "OpenAI Responses",
  anthropic: "Anthropic Messages",
};

export function dialectOfPath(path: string): Dialect | null {
  return BY_PATH.get(path) ?? null;
}

/** Asked for every model exchange the recorder sees (grouping, classification): one lookup, no entries array. */
const BY_PATH: ReadonlyMap<string, Dialect> = new Map(Object.entries(DIALECT_PATHS).map(([d, p]) => [p, d as Dialect]));

/** True when the dialect is a chat (ends as a native /api/chat request), false for the two generate ones. */
export function isChatDialect(d: Dialect): boolean {
  return d !== "ollama-generate" && d !== "openai-completions";
}

/** True when an Ollama of `version` serves `path` (native paths always; `/v1/models/x` as `/v1/models`). */
export function servesPath(path: string, version: string): boolean {
  const key = path.startsWith("/v1/models/") ? "/v1/models" : path;
  const since = ENDPOINT_SINCE[key];
  return since === undefined || atLeast(version, since);
}

/**
 * Whether the client asked for a stream. Ollama's native API streams unless told otherwise; the OpenAI and
 * Anthropic APIs do not.
 */
export function wantsStream(d: Dialect, body: Record<string, unknown>): boolean {
  if (typeof body.stream === "boolean") return body.stream;
  return d === "ollama" || d === "ollama-generate";
}
