/**
 * Start the notes MCP server: make sure the notes file exists, then listen. Tests and the one-command
 * launcher call `start()`; `main.ts` wraps it for `npm run start`.
 */
import { listen, type Listening } from "@hopscope/nodekit/listen";
import { silentLogger, type Logger } from "@hopscope/nodekit/logger";
import { createApp } from "./app";
import type { Config } from "./config";
import { NotesStore } from "./notes-store";

export type Running = Omit<Listening, "server">;

export async function start(config: Config, logger: Logger = silentLogger): Promise<Running> {
  const store = new NotesStore({ path: config.notesFile, maxBytes: config.maxNotesBytes });
  await store.ensureFile();
  const app = createApp({
    store,
    maxBodyBytes: config.maxBodyBytes,
    guard: { allowedHosts: config.allowedHosts ?? [], bindHost: config.host },
    logger,
  });
  return listen(app.fetch, config.port, config.host);
}
