/**
 * Legacy (2025-03-26 … 2025-11-25) messages a dual-era server still answers: the `initialize`
 * handshake, and `tools/list` / `tools/call` without the modern `_meta` envelope. Legacy results carry
 * no `resultType` (modern clients read its absence as "complete") and no cache hints.
 * Source: ../shared/reference/mcp-2026-07-28.md §3.2.
 */
import { z } from "zod";
import { ClientCapabilitiesSchema, ImplementationSchema, ServerCapabilitiesSchema } from "./schemas";
import { ContentBlockSchema, ToolSchema } from "./tools";

export const InitializeParamsSchema = z.looseObject({
  protocolVersion: z.string(),
  capabilities: ClientCapabilitiesSchema,
  clientInfo: ImplementationSchema,
  _meta: z.record(z.string(), z.unknown()).optional(),
});
export type InitializeParams = z.infer<typeof InitializeParamsSchema>;

export const InitializeResultSchema = z.looseObject({
  protocolVersion: z.string(),
  capabilities: ServerCapabilitiesSchema,
  serverInfo: ImplementationSchema,
  instructions: z.string().optional(),
});
export type InitializeResult = z.infer<typeof InitializeResultSchema>;

export const LegacyListToolsParamsSchema = z
  .looseObject({ cursor: z.string().optional(), _meta: z.record(z.string(), z.unknown()).optional() })
  .optional();

export const LegacyListToolsResultSchema = z.looseObject({
  tools: z.array(ToolSchema),
  nextCursor: z.string().optional(),
});
export type LegacyListToolsResult = z.infer<typeof LegacyListToolsResultSchema>;

export const LegacyCallToolParamsSchema = z.looseObject({
  name: z.string(),
  arguments: z.record(z.string(), z.unknown()).optional(),
  _meta: z.record(z.string(), z.unknown()).optional(),
});
export type LegacyCallToolParams = z.infer<typeof LegacyCallToolParamsSchema>;

export const LegacyCallToolResultSchema = z.looseObject({
  content: z.array(ContentBlockSchema),
  structuredContent: z.unknown().optional(),
  isError: z.boolean().optional(),
});
export type LegacyCallToolResult = z.infer<typeof LegacyCallToolResultSchema>;
