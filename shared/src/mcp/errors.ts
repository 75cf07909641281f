/**
 * JSON-RPC error codes MCP 2026-07-28 uses (basic/index.mdx "Error Codes"), with the HTTP status the
 * spec or the SDK pairs with each. Codes -32000..-32019 are legacy and must not be used by new code.
 */
export const ErrorCode = {
  ParseError: -32700,
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  InternalError: -32603,
  /** Headers disagree with the body, or a required header is missing or malformed (HTTP 400). */
  HeaderMismatch: -32020,
  /** `data.requiredCapabilities` (HTTP 400). */
  MissingRequiredClientCapability: -32021,
  /** `data.supported`, `data.requested` (HTTP 400). */
  UnsupportedProtocolVersion: -32022,
} as const;
export type ErrorCodeValue = (typeof ErrorCode)[keyof typeof ErrorCode];
