/**
 * Names and numbers of MCP revision 2026-07-28 (and the legacy revisions a dual-era server still
 * answers). Source: ../shared/reference/mcp-2026-07-28.md §2.3, §2.9, §2.11, §3.
 */

/** The modern revision: stateless, every request carries its metadata in `params._meta`. */
export const MODERN_PROTOCOL_VERSION = "2026-07-28";
export const MODERN_PROTOCOL_VERSIONS = [MODERN_PROTOCOL_VERSION] as const;

/** Legacy revisions whose `initialize` handshake a dual-era server answers, newest first. */
export const LEGACY_PROTOCOL_VERSIONS = ["2025-11-25", "2025-06-18", "2025-03-26"] as const;

/** Reserved `_meta` keys (basic/index.mdx, "_meta"). */
export const META_PROTOCOL_VERSION = "io.modelcontextprotocol/protocolVersion";
export const META_CLIENT_INFO = "io.modelcontextprotocol/clientInfo";
export const META_CLIENT_CAPABILITIES = "io.modelcontextprotocol/clientCapabilities";
export const META_LOG_LEVEL = "io.modelcontextprotocol/logLevel";
export const META_SERVER_INFO = "io.modelcontextprotocol/serverInfo";
export const META_TRACEPARENT = "traceparent";

/** Request-metadata headers (streamable-http.mdx, "Request Metadata"). Lower case: header names are case-insensitive. */
export const HEADER_PROTOCOL_VERSION = "mcp-protocol-version";
export const HEADER_METHOD = "mcp-method";
export const HEADER_NAME = "mcp-name";
/** Legacy sessions only; a 2026-07-28 server ignores it and never mints one. */
export const HEADER_SESSION_ID = "mcp-session-id";

/** What a client must accept on every POST (streamable-http.mdx, "Sending messages" item 2). */
export const ACCEPT_VALUE = "application/json, text/event-stream";

/** Methods whose `Mcp-Name` header mirrors a body field, and which field. */
export const MCP_NAME_SOURCE: Readonly<Record<string, "name" | "uri">> = {
  "tools/call": "name",
  "prompts/get": "name",
  "resources/read": "uri",
};
