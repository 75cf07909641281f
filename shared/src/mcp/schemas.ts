/**
 * The JSON-RPC 2.0 envelope of MCP 2026-07-28 and the pieces every request and result share:
 * request `_meta` (protocol version, client capabilities, client info, traceparent), result `resultType`,
 * `_meta.serverInfo`, cache hints, and JSON-RPC errors.
 * Source: ../shared/reference/mcp-2026-07-28.md §2.3, §2.7, §2.10, §2.11.
 *
 * Objects are loose (unknown keys kept) so a recorder or client never drops fields a newer peer adds;
 * the server validates what it needs and nothing more.
 */
import { z } from "zod";
import {
  META_CLIENT_CAPABILITIES,
  META_CLIENT_INFO,
  META_LOG_LEVEL,
  META_PROTOCOL_VERSION,
  META_SERVER_INFO,
  META_TRACEPARENT,
} from "./constants";

export const JsonRpcIdSchema = z.union([z.string(), z.number().int()]);
export type JsonRpcId = z.infer<typeof JsonRpcIdSchema>;

/** `Implementation`: who a client or server is. */
export const ImplementationSchema = z.looseObject({
  name: z.string(),
  title: z.string().optional(),
  version: z.string(),
  description: z.string().optional(),
  websiteUrl: z.string().optional(),
});
export type Implementation = z.infer<typeof ImplementationSchema>;

/** `ClientCapabilities`; `{}` means no optional capabilities. */
export const ClientCapabilitiesSchema = z.looseObject({
  experimental: z.record(z.string(), z.unknown()).optional(),
  roots: z.looseObject({ listChanged: z.boolean().optional() }).optional(),
  sampling: z.looseObject({}).optional(),
  elicitation: z.looseObject({}).optional(),
  extensions: z.record(z.string(), z.unknown()).optional(),
});
export type ClientCapabilities = z.infer<typeof ClientCapabilitiesSchema>;

export const ServerCapabilitiesSchema = z.looseObject({
  experimental: z.record(z.string(), z.unknown()).optional(),
  logging: z.looseObject({}).optional(),
  completions: z.looseObject({}).optional(),
  prompts: z.looseObject({ listChanged: z.boolean().optional() }).optional(),
  resources: z.looseObject({ subscribe: z.boolean().optional(), listChanged: z.boolean().optional() }).optional(),
  tools: z.looseObject({ listChanged: z.boolean().optional() }).optional(),
  extensions: z.record(z.string(), z.unknown()).optional(),
});
export type ServerCapabilities = z.infer<typeof ServerCapabilitiesSchema>;

/** `params._meta` of every modern request. `protocolVersion` and `clientCapabilities` are REQUIRED. */
export const RequestMetaSchema = z.looseObject({
  progressToken: z.union([z.string(), z.number()]).optional(),
  [META_PROTOCOL_VERSION]: z.string(),
  [META_CLIENT_INFO]: ImplementationSchema.optional(),
  [META_CLIENT_CAPABILITIES]: ClientCapabilitiesSchema,
  [META_LOG_LEVEL]: z.string().optional(),
  [META_TRACEPARENT]: z.string().optional(),
});
export type RequestMeta = z.infer<typeof RequestMetaSchema>;

/** `params` of a modern request: `_meta` is required, method-specific fields sit next to it. */
export const RequestParamsSchema = z.looseObject({ _meta: RequestMetaSchema });
export type RequestParams = z.infer<typeof RequestParamsSchema>;

/** `result._meta`: the server SHOULD name itself on every result. */
export const ResultMetaSchema = z.looseObject({
  [META_SERVER_INFO]: ImplementationSchema.optional(),
});
export type ResultMeta = z.infer<typeof ResultMetaSchema>;

/** `"complete"` or `"input_required"`; extensions may add more (e.g. `"task"`). */
export const ResultTypeSchema = z.string();
export type ResultType = z.infer<typeof ResultTypeSchema>;

/** Fields every modern result has. */
export const ResultSchema = z.looseObject({
  resultType: ResultTypeSchema,
  _meta: ResultMetaSchema.optional(),
});
export type Result = z.infer<typeof ResultSchema>;

export const CacheScopeSchema = z.enum(["public", "private"]);
export type CacheScope = z.infer<typeof CacheScopeSchema>;

/** Cache hints required on `server/discover`, `tools/list` and the other list/read results. */
export const CacheHintsShape = {
  ttlMs: z.number().int().min(0),
  cacheScope: CacheScopeSchema,
};

/** Any JSON-RPC request as it arrives on the wire, before method-specific validation. */
export const JsonRpcRequestSchema = z.looseObject({
  jsonrpc: z.literal("2.0"),
  id: JsonRpcIdSchema,
  method: z.string(),
  params: z.record(z.string(), z.unknown()).optional(),
});
export type JsonRpcRequest = z.infer<typeof JsonRpcRequestSchema>;

/** A notification: a request without `id`. The server answers 202 with no body. */
export const JsonRpcNotificationSchema = z.looseObject({
  jsonrpc: z.literal("2.0"),
  method: z.string(),
  params: z.record(z.string(), z.unknown()).optional(),
});
export type JsonRpcNotification = z.infer<typeof JsonRpcNotificationSchema>;

/** The error object. `data` carries e.g. `{ supported, requested }` for -32022. */
export const JsonRpcErrorObjectSchema = z.looseObject({
  code: z.number().int(),
  message: z.string(),
  data: z.unknown().optional(),
});
export type JsonRpcErrorObject = z.infer<typeof JsonRpcErrorObjectSchema>;

/** An error response. `id` is null when the request's id could not be read (parse error, 413, 403). */
export const JsonRpcErrorResponseSchema = z.looseObject({
  jsonrpc: z.literal("2.0"),
  id: JsonRpcIdSchema.nullable(),
  error: JsonRpcErrorObjectSchema,
});
export type JsonRpcErrorResponse = z.infer<typeof JsonRpcErrorResponseSchema>;

/** A success response wrapping a result schema, e.g. `resultResponseSchema(CallToolResultSchema)`. */
export function resultResponseSchema<T extends z.ZodType>(result: T) {
  return z.looseObject({ jsonrpc: z.literal("2.0"), id: JsonRpcIdSchema, result });
}

/** `data` of an UnsupportedProtocolVersion (-32022) error. */
export const UnsupportedVersionDataSchema = z.looseObject({
  supported: z.array(z.string()),
  requested: z.string().optional(),
});
export type UnsupportedVersionData = z.infer<typeof UnsupportedVersionDataSchema>;

/** What a POST to /mcp answers for a request: the success shape for `result`, or a JSON-RPC error. */
export function responseSchema<T extends z.ZodType>(result: T) {
  return z.union([resultResponseSchema(result), JsonRpcErrorResponseSchema]);
}
