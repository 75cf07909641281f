/**
 * The audience listener (`npm start -- --audience`): a second HTTP server, bound to the address the
 * presenter names, for a room of laptops. It answers only the viewer (viewer-routes.ts) and its feed,
 * a WebSocket at `/j/<code>/feed` that mirrors the presenter's position. The taps, the API and the
 * main UI stay on 127.0.0.1; this server reaches the store read-only and changes nothing.
 */
import { createAdaptorServer } from "@hono/node-server";
import type { IncomingMessage, Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Duplex } from "node:stream";
import { WebSocketServer, type WebSocket } from "ws";
import { AudienceClientFrameSchema, audiencePrefix } from "@hopscope/shared/trace/audience";
import type { Logger } from "../../logger";
import type { AudienceSocketLimits } from "../../config";
import { viewerRoutes, type ViewerRoutesDeps } from "./viewer-routes";

export interface AudienceListener {
  /** `http://host:port`, as a viewer on the network reaches it. */
  origin: string;
  /** The URL to hand the room, or null after the session ended. */
  joinUrl(): string | null;
  close(): Promise<void>;
}

/** A viewer is answered within this many bytes per frame; a viewer only ever sends `{"type":"ping"}`. */
const MAX_VIEWER_FRAME = 256;
/** Policy violation: the close code a viewer gets for sending anything but the feed protocol. */
const DROPPED = 1008;

/** A bare 403: a socket without the right code learns nothing about the listener. */
function refuse(socket: Duplex): void {
  socket.end("HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\nConnection: close\r\n\r\n");
}

/** A viewer's feed, once upgraded, is kept open by its pings instead of these timers. */
export const DEFAULT_SOCKET_LIMITS: AudienceSocketLimits = { maxSockets: 256, idleMs: 10_000, requestMs: 30_000 };

function limitSockets(server: Server, limits: AudienceSocketLimits): void {
  server.maxConnections = limits.maxSockets;
  server.headersTimeout = limits.idleMs;
  server.requestTimeout = limits.requestMs;
  server.keepAliveTimeout = Math.min(5_000, limits.idleMs);
  // A socket that never sends a byte is not a request yet: node:http's timers do not see it.
  server.on("connection", (socket) => socket.setTimeout(limits.idleMs, () => socket.destroy()));
}

export async function startAudienceListener(
  opts: ViewerRoutesDeps & {
    host: string;
    urlHost?: string;
    port: number;
    logger: Logger;
    limits?: Partial<AudienceSocketLimits>;
  },
): Promise<AudienceListener> {
  const { session, logger } = opts;
  const app = viewerRoutes(opts);
  const limits = { ...DEFAULT_SOCKET_LIMITS, ...opts.limits };
  const server = createAdaptorServer({
    fetch: app.fetch,
    overrideGlobalObjects: false,
    // How often node:http looks for heads and requests past their time (30 s by default).
    serverOptions: { connectionsCheckingInterval: Math.min(1_000, limits.idleMs / 2) },
  }) as Server;
  limitSockets(server, limits);
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_VIEWER_FRAME });

  server.on("upgrade", (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const m = /^\/j\/([^/?]+)\/feed(?:\?.*)?$/.exec(req.url ?? "");
    const address = req.socket.remoteAddress ?? "?";
    if (session.codeGuard.blocked(address)) return refuse(socket);
    if (!m || !session.accepts(m[1])) {
      session.codeGuard.wrong(address);
      return refuse(socket);
    }
    // A browser page from another site must not read the room's feed (the code could leak in a link).
    const origin = req.headers.origin;
    if (origin !== undefined && origin !== `http://${req.headers.host}`) return refuse(socket);
    wss.handleUpgrade(req, socket, head, (ws) => onViewer(ws));
  });

  function onViewer(ws: WebSocket): void {
    session.join(ws);
    ws.on("error", (err) => logger.warn({ err: err.message }, "audience viewer socket error"));
    ws.on("message", (data, isBinary) => {
      let ok = false;
      if (!isBinary) {
        try {
          ok = AudienceClientFrameSchema.safeParse(JSON.parse(data.toString())).success;
        } catch {
          ok = false; // not JSON: not the feed protocol
        }
      }
      if (!ok) ws.close(DROPPED, 'only {"type":"ping"} may be sent on the audience feed');
    });
    ws.send(JSON.stringify(session.positionFrame()));
  }

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(opts.port, opts.host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const shown = opts.urlHost ?? opts.host;
  const origin = `http://${shown.includes(":") ? `[${shown}]` : shown}:${port}`;
  return {
    origin,
    joinUrl: () => {
      const code = session.joinCode;
      return code ? `${origin}${audiencePrefix(code)}` : null;
    },
    close: async () => {
      session.end();
      for (const ws of wss.clients) ws.terminate();
      wss.close();
      server.closeAllConnections();
      await new Promise<void>((resolve, reject) => server.close((err) => (err ? reject(err) : resolve())));
    },
  };
}
