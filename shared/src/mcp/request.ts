/**
 * Build a modern (2026-07-28) MCP request: the JSON-RPC body with its `_meta` envelope, and the HTTP
 * headers that mirror it (`MCP-Protocol-Version`, `Mcp-Method`, `Mcp-Name`). A host POSTs `body` as
 * JSON with `headers` to the server's `/mcp`.
 */
import {
  ACCEPT_VALUE,
  MCP_NAME_SOURCE,
  META_CLIENT_CAPABILITIES,
  META_CLIENT_INFO,
  META_PROTOCOL_VERSION,
  META_TRACEPARENT,
  MODERN_PROTOCOL_VERSION,
} from "./constants";
import { encodeHeaderValue } from "./headers";
import type { ClientCapabilities, Implementation, JsonRpcId, RequestMeta } from "./schemas";

export interface ModernRequestOptions {
  id: JsonRpcId;
  method: string;
  /** Method params other than `_meta`, e.g. `{ name: "append", arguments: { content: "buy milk" } }`. */
  params?: Record<string, unknown>;
  clientInfo?: Implementation;
  clientCapabilities?: ClientCapabilities;
  /** W3C traceparent; goes in `_meta.traceparent` and in the `traceparent` header. */
  traceparent?: string;
  protocolVersion?: string;
}

export interface ModernRequest {
  body: { jsonrpc: "2.0"; id: JsonRpcId; method: string; params: Record<string, unknown> & { _meta: RequestMeta } };
  /** Lower-case header names; includes Content-Type and Accept. */
  headers: Record<string, string>;
}

export function buildModernRequest(opts: ModernRequestOptions): ModernRequest {
  const protocolVersion = opts.protocolVersion ?? MODERN_PROTOCOL_VERSION;
  const meta: RequestMeta = {
    [META_PROTOCOL_VERSION]: protocolVersion,
    [META_CLIENT_CAPABILITIES]: opts.clientCapabilities ?? {},
  };
  if (opts.clientInfo) meta[META_CLIENT_INFO] = opts.clientInfo;
  if (opts.traceparent) meta[META_TRACEPARENT] = opts.traceparent;
  const params: Record<string, unknown> & { _meta: RequestMeta } = { ...(opts.params ?? {}), _meta: meta };
  const headers: Record<string, string> = {
    "content-type": "application/json",
    accept: ACCEPT_VALUE,
    "mcp-protocol-version": protocolVersion,
    "mcp-method": opts.method,
  };
  const nameField = MCP_NAME_SOURCE[opts.method];
  const nameValue = nameField === undefined ? undefined : params[nameField];
  if (typeof nameValue === "string") headers["mcp-name"] = encodeHeaderValue(nameValue);
  if (opts.traceparent) headers.traceparent = opts.traceparent;
  return { body: { jsonrpc: "2.0", id: opts.id, method: opts.method, params }, headers };
}

/** Convenience for the common case: `tools/call` of `name` with `args`. */
export function buildToolCallRequest(
  id: JsonRpcId,
  name: string,
  args: Record<string, unknown>,
  extra: Omit<ModernRequestOptions, "id" | "method" | "params"> = {},
): ModernRequest {
  return buildModernRequest({ ...extra, id, method: "tools/call", params: { name, arguments: args } });
}
