/**
 * The notes MCP server's Hono app: an Origin guard in front of everything, `/mcp`, and one onError.
 */
import { Hono } from "hono";
import { ErrorCode } from "@hopscope/shared/mcp/errors";
import { mcpRoute } from "./mcp-route";
import type { NotesStore } from "./notes-store";
import { isAllowedOrigin } from "./origin";

export interface AppDeps {
  store: NotesStore;
  maxBodyBytes: number;
}

export function createApp(deps: AppDeps): Hono {
  const app = new Hono();

  app.use("*", async (c, next) => {
    const origin = c.req.header("origin");
    if (!isAllowedOrigin(origin)) {
      // The spec allows a JSON-RPC error with no id here; null is JSON-RPC's "no id".
      return c.json(
        { jsonrpc: "2.0", id: null, error: { code: ErrorCode.InvalidRequest, message: `Forbidden: Origin '${origin}' is not local; this server only accepts pages served from localhost` } },
        403,
      );
    }
    await next();
  });

  app.route("/mcp", mcpRoute(deps));

  app.notFound((c) => c.json({ error: `No route ${c.req.method} ${c.req.path}: the MCP endpoint is POST /mcp` }, 404));

  app.onError((err, c) => {
    console.error("mcp-server: unhandled error:", err);
    return c.json({ jsonrpc: "2.0", id: null, error: { code: ErrorCode.InternalError, message: `Internal error: ${err.message}` } }, 500);
  });

  return app;
}
