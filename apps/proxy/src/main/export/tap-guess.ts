/**
 * Which tap an imported request would have crossed, guessed from its path and headers (HAR files from a
 * browser or another tool say nothing about hopscope's taps). First match wins:
 *
 * 1. `model`: Ollama's native API (`/api/chat`, `/api/generate`, `/api/embed`, `/api/tags`, …) and the
 *    OpenAI-compatible one Ollama also serves (`/v1/chat/completions`, `/v1/completions`, …).
 * 2. `mcp`: a path ending in `/mcp`, or a request carrying an MCP header (`Mcp-Method`,
 *    `MCP-Protocol-Version`) wherever it was sent.
 * 3. `agent`: a path ending in `/agent`, and anything else: traffic that is none of the above is a
 *    client talking to an application, which is what the agent tap (user ↔ host) records. Such
 *    exchanges classify as `{ kind: "other" }`.
 */
import type { HeaderList, Tap } from "@hopscope/shared/trace/schemas";

const OLLAMA_PATH =
  /^\/api\/(chat|generate|embed|embeddings|tags|show|ps|version|pull|push|create|copy|delete|blobs)(\/|$)|^\/v1\/(chat\/completions|completions|embeddings|models|responses)(\/|$)/;

export function guessTap(path: string, headers: HeaderList): Tap {
  if (OLLAMA_PATH.test(path)) return "model";
  const mcpHeader = headers.some(([name]) => /^(mcp-method|mcp-protocol-version)$/i.test(name));
  if (/\/mcp\/?$/.test(path) || mcpHeader) return "mcp";
  return "agent";
}
