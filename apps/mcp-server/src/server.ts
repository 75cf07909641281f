/**
 * Start the notes MCP server: make sure the notes file exists, then listen. Tests and the one-command
 * launcher call `start()`; `main.ts` wraps it for `npm run start`.
 */
import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import type { Server } from "node:http";
import { createApp } from "./app";
import type { Config } from "./config";
import { NotesStore } from "./notes-store";

export interface Running {
  url: string;
  port: number;
  close(): Promise<void>;
}

export async function start(config: Config): Promise<Running> {
  const store = new NotesStore({ path: config.notesFile, maxBytes: config.maxNotesBytes });
  await store.ensureFile();
  const app = createApp({ store, maxBodyBytes: config.maxBodyBytes });
  const server = await new Promise<Server>((resolve, reject) => {
    const s = serve({ fetch: app.fetch, port: config.port, hostname: config.host }, () => resolve(s as Server));
    s.once("error", reject);
  });
  const { port } = server.address() as AddressInfo;
  const host = config.host.includes(":") ? `[${config.host}]` : config.host;
  return {
    url: `http://${host}:${port}`,
    port,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((err) => (err ? reject(err) : resolve()));
        // Keep-alive sockets would hold close() open until they time out.
        server.closeAllConnections();
      }),
  };
}
