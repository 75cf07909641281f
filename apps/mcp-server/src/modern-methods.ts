/**
 * The 2026-07-28 methods: `server/discover`, `tools/list`, `tools/call`. Every result gets
 * `resultType: "complete"` and `_meta.serverInfo`; cacheable ones get `ttlMs` and `cacheScope`.
 * Anything else, including `initialize` sent with a modern envelope, is 404 / -32601.
 */
import { META_SERVER_INFO, MODERN_PROTOCOL_VERSIONS } from "@hopscope/shared/mcp/constants";
import type { DiscoverResult } from "@hopscope/shared/mcp/discover";
import { ErrorCode } from "@hopscope/shared/mcp/errors";
import {
  type CallToolResult,
  CallToolParamsSchema,
  ListToolsParamsSchema,
  type ListToolsResult,
} from "@hopscope/shared/mcp/tools";
import type { NotesStore } from "./notes-store";
import { RpcError } from "./rpc-error";
import { INSTRUCTIONS, LIST_TTL_MS, SERVER_INFO } from "./server-info";
import { TOOLS, TOOL_NAMES, runTool } from "./tools";

const resultMeta = () => ({ [META_SERVER_INFO]: SERVER_INFO });

const invalidParams = (what: string) => new RpcError(200, ErrorCode.InvalidParams, `Invalid params: ${what}`);

export async function dispatchModern(
  method: string,
  params: Record<string, unknown>,
  store: NotesStore,
): Promise<object> {
  switch (method) {
    case "server/discover": {
      const result: DiscoverResult = {
        resultType: "complete",
        supportedVersions: [...MODERN_PROTOCOL_VERSIONS],
        capabilities: { tools: { listChanged: false } },
        instructions: INSTRUCTIONS,
        ttlMs: LIST_TTL_MS,
        cacheScope: "public",
        _meta: resultMeta(),
      };
      return result;
    }
    case "tools/list": {
      const p = ListToolsParamsSchema.safeParse(params);
      if (!p.success) throw invalidParams("tools/list takes only _meta and an optional string cursor");
      // One page holds every tool, so no cursor we issued exists: any cursor is invalid.
      if (p.data.cursor !== undefined)
        throw invalidParams(
          `unknown cursor ${JSON.stringify(p.data.cursor)}; this server returns every tool on the first page`,
        );
      const result: ListToolsResult = {
        resultType: "complete",
        tools: TOOLS,
        ttlMs: LIST_TTL_MS,
        cacheScope: "public",
        _meta: resultMeta(),
      };
      return result;
    }
    case "tools/call": {
      const p = CallToolParamsSchema.safeParse(params);
      if (!p.success)
        throw invalidParams("tools/call needs params.name (string) and optional params.arguments (object)");
      const { name } = p.data;
      if (!TOOL_NAMES.has(name))
        throw invalidParams(`Unknown tool: ${name}. Available tools: ${[...TOOL_NAMES].join(", ")}`);
      const outcome = await runTool(store, name, p.data.arguments ?? {});
      // Key order as in the article's moment-7 response.
      const result: CallToolResult = {
        resultType: "complete",
        content: [{ type: "text", text: outcome.text }],
        isError: outcome.isError,
        _meta: resultMeta(),
      };
      return result;
    }
    default:
      throw new RpcError(
        404,
        ErrorCode.MethodNotFound,
        `Method not found: ${method}. This server implements server/discover, tools/list and tools/call`,
      );
  }
}
