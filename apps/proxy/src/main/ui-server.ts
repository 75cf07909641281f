/**
 * The UI/API port's node:http server, held to the taps' socket limits (HEADERS_TIMEOUT_MS): a request head
 * not complete that long after its first byte gets node:http's 408 and the socket closes (a slow-header
 * client); a socket that sends nothing for that long closes, and so does a kept-alive one idle for
 * KEEP_ALIVE_MS (or the head timeout, when shorter). A request being answered is never timed (a download
 * to a slow reader, a long answer), nor is the live feed's WebSocket once upgraded (it has its heartbeat).
 */
import { createAdaptorServer } from "@hono/node-server";
import type { Server } from "node:http";

/** As the taps close an idle kept-alive connection (node:http's own default). */
const KEEP_ALIVE_MS = 5_000;

export function createUiServer(
  fetch: Parameters<typeof createAdaptorServer>[0]["fetch"],
  headersTimeoutMs: number,
): Server {
  const server = createAdaptorServer({
    fetch,
    overrideGlobalObjects: false,
    // How often node:http looks for heads past their time (every 30 s by default): a tenth of the timeout
    // (10 ms to 1 s), as the taps look.
    serverOptions: { connectionsCheckingInterval: Math.min(1_000, Math.max(10, Math.floor(headersTimeoutMs / 10))) },
  }) as Server;
  server.headersTimeout = headersTimeoutMs;
  server.keepAliveTimeout = Math.min(KEEP_ALIVE_MS, headersTimeoutMs);
  // A socket that has sent no byte is no request yet, so node:http's head timer does not see it: an idle
  // timer does (node:http closes a socket whose timeout no listener handles). An upgrade drops node:http's
  // handler with the rest of its parsing, so this timer never closes a WebSocket.
  server.on("connection", (socket) => socket.setTimeout(headersTimeoutMs));
  // From its head on, a request is node:http's to time (headersTimeout, requestTimeout); its answer may take
  // as long as it takes. Once answered, node:http times the kept-alive socket again (keepAliveTimeout).
  server.on("request", (req) => req.socket.setTimeout(0));
  return server;
}
