/**
 * `server/discover` (server/discover.mdx): what versions, capabilities and identity a server has.
 * Identity travels in `result._meta["io.modelcontextprotocol/serverInfo"]`; there is no body `serverInfo`.
 * Source: ../shared/reference/mcp-2026-07-28.md §2.4.
 */
import { z } from "zod";
import {
  CacheHintsShape,
  RequestMetaSchema,
  ResultMetaSchema,
  ResultTypeSchema,
  ServerCapabilitiesSchema,
} from "./schemas";

export const DiscoverParamsSchema = z.looseObject({ _meta: RequestMetaSchema });
export type DiscoverParams = z.infer<typeof DiscoverParamsSchema>;

export const DiscoverResultSchema = z.looseObject({
  resultType: ResultTypeSchema,
  _meta: ResultMetaSchema.optional(),
  supportedVersions: z.array(z.string()).min(1),
  capabilities: ServerCapabilitiesSchema,
  instructions: z.string().optional(),
  ...CacheHintsShape,
});
export type DiscoverResult = z.infer<typeof DiscoverResultSchema>;
