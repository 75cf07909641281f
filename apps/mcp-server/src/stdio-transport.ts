/**
 * The notes server over stdio (MCP basic/transports stdio): one JSON-RPC message per line on stdin, one
 * answer per line on stdout, nothing else on stdout (logs go to stderr). Same methods, tools, errors and
 * notes queue as `POST /mcp`; the era is read from each message the same way, and only the header checks
 * are left out (stdio has no headers). Requests run concurrently, so answers may come out of order, as
 * JSON-RPC allows. At end of input the answers still running are written, then it resolves.
 */
import type { Readable, Writable } from "node:stream";
import { ErrorCode } from "@hopscope/shared/mcp/errors";
import type { JsonRpcId } from "@hopscope/shared/mcp/schemas";
import { StdioFramer } from "@hopscope/shared/mcp/stdio-frames";
import { checkLegacy, checkModern, classify, parseMessage } from "./inbound";
import { dispatchLegacy } from "./legacy-methods";
import { dispatchModern } from "./modern-methods";
import type { NotesStore } from "./notes-store";
import { RpcError } from "./rpc-error";

export interface StdioDeps {
  store: NotesStore;
  /** Longest accepted line; a longer one is answered with -32600 and dropped. */
  maxBodyBytes: number;
  input: Readable;
  output: Writable;
  log: (line: string) => void;
}

const noHeaders = () => undefined;

export async function serveStdio(deps: StdioDeps): Promise<void> {
  const framer = new StdioFramer(deps.maxBodyBytes);
  const running = new Set<Promise<void>>();
  const send = (message: object) => deps.output.write(`${JSON.stringify(message)}\n`);

  const handle = async (bytes: Uint8Array, size: number): Promise<void> => {
    if (size > deps.maxBodyBytes) {
      send(
        new RpcError(
          400,
          ErrorCode.InvalidRequest,
          `Invalid Request: the line is ${size} bytes, over the ${deps.maxBodyBytes}-byte limit (MCP_MAX_BODY_BYTES); send a smaller message`,
        ).toResponse(null),
      );
      return;
    }
    const parsed = parseMessage(bytes);
    if (!parsed.ok) {
      send(parsed.error.toResponse(parsed.id));
      return;
    }
    const { id, method, params, isNotification } = parsed.message;
    try {
      const result = await answer(method, params, isNotification, deps.store);
      if (result !== null && !isNotification) send({ jsonrpc: "2.0", id, result });
    } catch (err) {
      // A notification gets no answer, not even an error (JSON-RPC 2.0 §4.1).
      if (isNotification) deps.log(`${method} failed: ${(err as Error).message}`);
      else send(errorOf(err, method, id, deps.log));
    }
  };

  for await (const chunk of deps.input as AsyncIterable<Buffer>) {
    for (const frame of framer.push(chunk)) {
      if (frame.size === 0) continue;
      const p = handle(frame.bytes, frame.size).finally(() => running.delete(p));
      running.add(p);
    }
  }
  const rest = framer.rest();
  if (rest)
    deps.log(`the input ended in the middle of a line (${rest.size} bytes without a newline); it was not answered`);
  await Promise.all(running);
}

async function answer(
  method: string,
  params: Record<string, unknown>,
  isNotification: boolean,
  store: NotesStore,
): Promise<object | null> {
  const era = classify(params, noHeaders);
  if (era === "modern") checkModern(method, params, isNotification, noHeaders, "stdio");
  else checkLegacy(method, noHeaders);
  if (isNotification) return null;
  return era === "modern" ? dispatchModern(method, params, store) : dispatchLegacy(method, params, store);
}

function errorOf(err: unknown, method: string, id: JsonRpcId | null, log: (line: string) => void): object {
  if (err instanceof RpcError) return err.toResponse(id);
  // An I/O failure on the notes file: the client still gets its id back, and stderr says why.
  log(`${method} failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
  return new RpcError(
    500,
    ErrorCode.InternalError,
    `Internal error while running ${method}: ${(err as Error).message}`,
  ).toResponse(id);
}
