/**
 * The notes MCP server's Hono app: the request guard in front of everything (streamable-http.mdx
 * "Security": Origin, and Host against DNS rebinding), `/mcp`, and one onError.
 */
import { Hono } from "hono";
import { guard, type GuardPolicy } from "@hopscope/nodekit/guard";
import type { Logger } from "@hopscope/nodekit/logger";
import { ErrorCode } from "@hopscope/shared/mcp/errors";
import { mcpRoute } from "./mcp-route";
import type { NotesStore } from "./notes-store";

export interface AppDeps {
  store: NotesStore;
  maxBodyBytes: number;
  guard: GuardPolicy;
  logger: Logger;
}

export function createApp(deps: AppDeps): Hono {
  const app = new Hono();

  app.use(
    "*",
    // The spec allows a JSON-RPC error with no id here; null is JSON-RPC's "no id".
    guard(deps.guard, (c, refusal) =>
      c.json(
        { jsonrpc: "2.0", id: null, error: { code: ErrorCode.InvalidRequest, message: refusal.message } },
        refusal.status,
      ),
    ),
  );

  app.route("/mcp", mcpRoute(deps));

  app.notFound((c) => c.json({ error: `No route ${c.req.method} ${c.req.path}: the MCP endpoint is POST /mcp` }, 404));

  app.onError((err, c) => {
    deps.logger.error({ err }, "unhandled error");
    return c.json(
      { jsonrpc: "2.0", id: null, error: { code: ErrorCode.InternalError, message: `Internal error: ${err.message}` } },
      500,
    );
  });

  return app;
}
