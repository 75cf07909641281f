/**
 * Legacy (2025-03-26 … 2025-11-25) traffic, served statelessly: `initialize` is answered without
 * minting a session (no Mcp-Session-Id, nothing remembered), and later envelope-less `tools/list` /
 * `tools/call` / `ping` are answered on their own. Results keep the 2025 shapes (no resultType).
 * Errors are in-band with HTTP 200, as 2025 servers answer them.
 */
import { LEGACY_PROTOCOL_VERSIONS } from "@hopscope/shared/mcp/constants";
import { ErrorCode } from "@hopscope/shared/mcp/errors";
import {
  type InitializeResult,
  InitializeParamsSchema,
  LegacyCallToolParamsSchema,
  type LegacyCallToolResult,
  type LegacyListToolsResult,
} from "@hopscope/shared/mcp/legacy";
import type { NotesStore } from "./notes-store";
import { RpcError } from "./rpc-error";
import { INSTRUCTIONS, SERVER_INFO } from "./server-info";
import { TOOLS, TOOL_NAMES, runTool } from "./tools";

const invalidParams = (what: string) => new RpcError(200, ErrorCode.InvalidParams, `Invalid params: ${what}`);

export async function dispatchLegacy(
  method: string,
  params: Record<string, unknown>,
  store: NotesStore,
): Promise<object> {
  switch (method) {
    case "initialize": {
      const p = InitializeParamsSchema.safeParse(params);
      if (!p.success)
        throw invalidParams("initialize needs params.protocolVersion, params.capabilities and params.clientInfo");
      const asked = p.data.protocolVersion;
      // 2025-11-25 lifecycle: echo the client's version when supported, else offer our newest.
      const protocolVersion = (LEGACY_PROTOCOL_VERSIONS as readonly string[]).includes(asked)
        ? asked
        : LEGACY_PROTOCOL_VERSIONS[0];
      const result: InitializeResult = {
        protocolVersion,
        capabilities: { tools: { listChanged: false } },
        serverInfo: SERVER_INFO,
        instructions: INSTRUCTIONS,
      };
      return result;
    }
    case "ping":
      return {};
    case "tools/list": {
      if (params.cursor !== undefined)
        throw invalidParams(`unknown cursor ${JSON.stringify(params.cursor)}; every tool is on the first page`);
      const result: LegacyListToolsResult = { tools: TOOLS };
      return result;
    }
    case "tools/call": {
      const p = LegacyCallToolParamsSchema.safeParse(params);
      if (!p.success)
        throw invalidParams("tools/call needs params.name (string) and optional params.arguments (object)");
      if (!TOOL_NAMES.has(p.data.name))
        throw invalidParams(`Unknown tool: ${p.data.name}. Available tools: ${[...TOOL_NAMES].join(", ")}`);
      const outcome = await runTool(store, p.data.name, p.data.arguments ?? {});
      const result: LegacyCallToolResult = {
        content: [{ type: "text", text: outcome.text }],
        isError: outcome.isError,
      };
      return result;
    }
    default:
      throw new RpcError(
        200,
        ErrorCode.MethodNotFound,
        `Method not found: ${method}. Legacy clients can call initialize, ping, tools/list and tools/call`,
      );
  }
}
