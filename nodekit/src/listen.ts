/**
 * Listen and close, the same way for every app: bind `host:port` (port 0 picks a free one, for tests),
 * report the URL clients use, and close without waiting for keep-alive sockets to time out.
 */
import { createAdaptorServer } from "@hono/node-server";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Logger } from "./logger";

export interface Listening {
  url: string;
  port: number;
  server: Server;
  close(): Promise<void>;
}

/** `host` as it goes in a URL: IPv6 addresses in brackets. */
export function urlHost(host: string): string {
  return host.includes(":") ? `[${host}]` : host;
}

/** Listens on an existing node:http server. */
export async function listenServer(server: Server, port: number, host: string): Promise<Listening> {
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const bound = (server.address() as AddressInfo).port;
  return {
    url: `http://${urlHost(host)}:${bound}`,
    port: bound,
    server,
    close: () => closeServer(server),
  };
}

/** Serves a fetch handler (a Hono app's `fetch`). */
export function listen(
  fetch: (req: Request) => Response | Promise<Response>,
  port: number,
  host: string,
): Promise<Listening> {
  return listenServer(createAdaptorServer({ fetch, overrideGlobalObjects: false }) as Server, port, host);
}

export function closeServer(server: Server): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    server.close((err) => (err ? reject(err) : resolve()));
    // Keep-alive sockets (and streams in flight) would hold close() open until they time out.
    server.closeAllConnections();
  });
}

/** main.ts's ending: close on SIGINT/SIGTERM, exit 0, or 1 with the reason logged. */
export function closeOnSignals(close: () => Promise<void>, logger: Logger): void {
  const stop = () => {
    close().then(
      () => process.exit(0),
      (err: unknown) => {
        logger.error({ err }, "could not close cleanly");
        process.exit(1);
      },
    );
  };
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
}
