/** Start the host on `config.host:config.port` (port 0 picks a free one, for tests). */
import { serve } from "@hono/node-server";
import type { AddressInfo } from "node:net";
import { createApp, type AppDeps } from "./app";
import type { Config } from "./config";

export interface RunningHost {
  url: string;
  port: number;
  close(): Promise<void>;
}

export function start(config: Config, deps: Omit<AppDeps, "config"> = {}): Promise<RunningHost> {
  const app = createApp({ ...deps, config });
  return new Promise((resolve, reject) => {
    const server = serve({ fetch: app.fetch, port: config.port, hostname: config.host }, (info: AddressInfo) => {
      const host = info.family === "IPv6" ? `[${info.address}]` : info.address;
      resolve({
        url: `http://${host}:${info.port}`,
        port: info.port,
        close: () =>
          new Promise<void>((done, fail) => {
            server.close((err) => (err ? fail(err) : done()));
            // Keep-alive sockets would hold close() open until they time out.
            if ("closeAllConnections" in server) server.closeAllConnections();
          }),
      });
    });
    server.once("error", reject);
  });
}
