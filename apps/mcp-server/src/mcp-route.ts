/**
 * `/mcp`: the only endpoint. POST carries one JSON-RPC message; GET and DELETE (2025-era SSE stream and
 * session teardown) are 405 because this server keeps no sessions. Order of refusals: content type
 * (415), size (413), JSON-RPC shape (400), era checks (inbound.ts), then the method.
 */
import { Hono } from "hono";
import type { Context } from "hono";
import { ErrorCode } from "@hopscope/shared/mcp/errors";
import type { JsonRpcId } from "@hopscope/shared/mcp/schemas";
import { checkLegacy, checkModern, classify, parseMessage } from "./inbound";
import { dispatchLegacy } from "./legacy-methods";
import { dispatchModern } from "./modern-methods";
import type { NotesStore } from "./notes-store";
import { readBodyCapped } from "@hopscope/nodekit/body";
import { isJsonContentType } from "@hopscope/nodekit/guard";
import type { Logger } from "@hopscope/nodekit/logger";
import { RpcError } from "./rpc-error";

export interface McpRouteDeps {
  store: NotesStore;
  maxBodyBytes: number;
  logger: Logger;
}

function errorReply(c: Context, err: RpcError, id: JsonRpcId | null): Response {
  return c.json(err.toResponse(id), err.status);
}

export function mcpRoute(deps: McpRouteDeps): Hono {
  const route = new Hono();

  route.post("/", async (c) => {
    const type = c.req.header("content-type") ?? "";
    // The guard refuses a wrong type when a body is sent; a POST without one must say JSON all the same.
    if (!isJsonContentType(type)) {
      const err = new RpcError(
        415,
        ErrorCode.InvalidRequest,
        `Unsupported Media Type: send Content-Type: application/json (got ${type ? `'${type}'` : "none"})`,
      );
      return errorReply(c, err, null);
    }
    const bytes = await readBodyCapped(c.req.raw, deps.maxBodyBytes);
    if (bytes === null) {
      // The rest of the body is still on the socket unread: close it so no client reuses the connection.
      c.header("Connection", "close");
      const err = new RpcError(
        413,
        ErrorCode.InvalidRequest,
        `Payload Too Large: the body is over ${deps.maxBodyBytes} bytes; send a smaller request`,
      );
      return errorReply(c, err, null);
    }
    const parsed = parseMessage(bytes);
    if (!parsed.ok) return errorReply(c, parsed.error, parsed.id);
    const { id, method, params, isNotification } = parsed.message;
    const header = (name: string) => c.req.header(name);

    try {
      const era = classify(params, header);
      if (era === "modern") checkModern(method, params, isNotification, header);
      else checkLegacy(method, header);
      // Notifications (e.g. notifications/initialized) need nothing from us: 202, no body.
      if (isNotification) return c.body(null, 202);
      const result =
        era === "modern"
          ? await dispatchModern(method, params, deps.store)
          : await dispatchLegacy(method, params, deps.store);
      return c.json({ jsonrpc: "2.0", id, result }, 200);
    } catch (err) {
      if (err instanceof RpcError) return errorReply(c, err, id);
      // An I/O failure on the notes file: the client still gets its id back, and the log says why.
      deps.logger.error({ err, method }, `${method} failed`);
      return errorReply(
        c,
        new RpcError(500, ErrorCode.InternalError, `Internal error while running ${method}: ${(err as Error).message}`),
        id,
      );
    }
  });

  route.on(["GET", "DELETE", "PUT", "PATCH"], "/", (c) => {
    c.header("Allow", "POST");
    const err = new RpcError(
      405,
      ErrorCode.InvalidRequest,
      `Method Not Allowed: ${c.req.method} /mcp. This stateless server only accepts POST (no SSE stream, no sessions)`,
    );
    return errorReply(c, err, null);
  });

  return route;
}
