/**
 * Start model-sim on a port: `start(config)` → `{ url, port, close() }`. Tests and the launcher call
 * this; main.ts is the command-line entry. The prompt engine (tokenizer included) is loaded before the
 * port opens, so the first request is not the slow one.
 */
import { serve } from "@hono/node-server";
import type { AddressInfo } from "node:net";
import { createApp } from "./app";
import type { Config } from "./config";
import { loadPromptEngine } from "./engine";
import { silentLogger, type Logger } from "./logger";
import { ModelState } from "./model-state";
import type { RunnerEvent } from "./runner";

export interface StartDeps {
  logger?: Logger;
  onRunnerEvent?: (e: RunnerEvent) => void;
}

export interface RunningServer {
  url: string;
  port: number;
  close(): Promise<void>;
}

export async function start(config: Config, deps: StartDeps = {}): Promise<RunningServer> {
  const engine = await loadPromptEngine(config.ollamaVersion);
  const app = createApp({
    config,
    engine,
    state: new ModelState(),
    logger: deps.logger ?? silentLogger,
    onRunnerEvent: deps.onRunnerEvent,
  });
  const server = await new Promise<ReturnType<typeof serve>>((resolve, reject) => {
    const s = serve({ fetch: app.fetch, port: config.port, hostname: config.host }, () => resolve(s));
    s.once("error", reject);
  });
  const { port } = server.address() as AddressInfo;
  const host = config.host.includes(":") ? `[${config.host}]` : config.host;
  return {
    url: `http://${host}:${port}`,
    port,
    close: () =>
      new Promise<void>((resolve, reject) => {
        // Streams in flight would keep close() waiting for their last token.
        if ("closeAllConnections" in server) server.closeAllConnections();
        server.close((err) => (err ? reject(err) : resolve()));
      }),
  };
}
