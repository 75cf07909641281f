/**
 * Tools: definitions (`tools/list`), content blocks and `tools/call` params and results, per MCP
 * 2026-07-28 (server/tools.mdx). Source: ../shared/reference/mcp-2026-07-28.md §2.5, §2.6.
 */
import { z } from "zod";
import { CacheHintsShape, RequestMetaSchema, ResultMetaSchema, ResultTypeSchema } from "./schemas";

const AnnotationsSchema = z.looseObject({
  audience: z.array(z.string()).optional(),
  priority: z.number().optional(),
  lastModified: z.string().optional(),
});

export const TextContentSchema = z.looseObject({
  type: z.literal("text"),
  text: z.string(),
  annotations: AnnotationsSchema.optional(),
  _meta: z.record(z.string(), z.unknown()).optional(),
});
export type TextContent = z.infer<typeof TextContentSchema>;

export const ImageContentSchema = z.looseObject({
  type: z.literal("image"),
  data: z.string(),
  mimeType: z.string(),
  annotations: AnnotationsSchema.optional(),
});

export const AudioContentSchema = z.looseObject({
  type: z.literal("audio"),
  data: z.string(),
  mimeType: z.string(),
  annotations: AnnotationsSchema.optional(),
});

export const ResourceLinkSchema = z.looseObject({
  type: z.literal("resource_link"),
  uri: z.string(),
  name: z.string(),
  mimeType: z.string().optional(),
});

export const EmbeddedResourceSchema = z.looseObject({
  type: z.literal("resource"),
  resource: z.looseObject({
    uri: z.string(),
    mimeType: z.string().optional(),
    text: z.string().optional(),
    blob: z.string().optional(),
  }),
});

export const ContentBlockSchema = z.discriminatedUnion("type", [
  TextContentSchema,
  ImageContentSchema,
  AudioContentSchema,
  ResourceLinkSchema,
  EmbeddedResourceSchema,
]);
export type ContentBlock = z.infer<typeof ContentBlockSchema>;

/** A tool's `inputSchema`: a JSON Schema whose root MUST be `type: "object"`. */
export const ToolInputSchemaSchema = z.looseObject({
  $schema: z.string().optional(),
  type: z.literal("object"),
  properties: z.record(z.string(), z.record(z.string(), z.unknown())).optional(),
  required: z.array(z.string()).optional(),
  additionalProperties: z.boolean().optional(),
});
export type ToolInputSchema = z.infer<typeof ToolInputSchemaSchema>;

export const ToolAnnotationsSchema = z.looseObject({
  title: z.string().optional(),
  readOnlyHint: z.boolean().optional(),
  destructiveHint: z.boolean().optional(),
  idempotentHint: z.boolean().optional(),
  openWorldHint: z.boolean().optional(),
});
export type ToolAnnotations = z.infer<typeof ToolAnnotationsSchema>;

export const ToolSchema = z.looseObject({
  name: z.string(),
  title: z.string().optional(),
  description: z.string().optional(),
  inputSchema: ToolInputSchemaSchema,
  outputSchema: z.record(z.string(), z.unknown()).optional(),
  annotations: ToolAnnotationsSchema.optional(),
  _meta: z.record(z.string(), z.unknown()).optional(),
});
export type Tool = z.infer<typeof ToolSchema>;

/** `tools/list` params: `_meta` plus an optional opaque `cursor`. */
export const ListToolsParamsSchema = z.looseObject({
  _meta: RequestMetaSchema,
  cursor: z.string().optional(),
});
export type ListToolsParams = z.infer<typeof ListToolsParamsSchema>;

export const ListToolsResultSchema = z.looseObject({
  resultType: ResultTypeSchema,
  _meta: ResultMetaSchema.optional(),
  tools: z.array(ToolSchema),
  nextCursor: z.string().optional(),
  ...CacheHintsShape,
});
export type ListToolsResult = z.infer<typeof ListToolsResultSchema>;

/** `tools/call` params. `arguments` is an object; the tool itself checks what is inside. */
export const CallToolParamsSchema = z.looseObject({
  _meta: RequestMetaSchema,
  name: z.string(),
  arguments: z.record(z.string(), z.unknown()).optional(),
});
export type CallToolParams = z.infer<typeof CallToolParamsSchema>;

/** `tools/call` result. `isError: true` is a tool error meant for the model, not a protocol error. */
export const CallToolResultSchema = z.looseObject({
  resultType: ResultTypeSchema,
  _meta: ResultMetaSchema.optional(),
  content: z.array(ContentBlockSchema),
  structuredContent: z.unknown().optional(),
  isError: z.boolean().optional(),
});
export type CallToolResult = z.infer<typeof CallToolResultSchema>;
