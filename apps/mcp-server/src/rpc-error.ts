/**
 * A JSON-RPC error with the HTTP status it travels with. Thrown anywhere in the /mcp pipeline and
 * turned into `{ jsonrpc, id, error }` by the route, which knows the request id.
 */
import type { JsonRpcErrorResponse, JsonRpcId } from "@hopscope/shared/mcp/schemas";

export type HttpErrorStatus = 200 | 400 | 403 | 404 | 405 | 413 | 415 | 500;

export class RpcError extends Error {
  override name = "RpcError";
  constructor(
    readonly status: HttpErrorStatus,
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
  }

  toResponse(id: JsonRpcId | null): JsonRpcErrorResponse {
    const error =
      this.data === undefined
        ? { code: this.code, message: this.message }
        : { code: this.code, message: this.message, data: this.data };
    return { jsonrpc: "2.0", id, error };
  }
}
