/**
 * Start model-sim on a port: `start(config)` → `{ url, port, close() }`. Tests and the launcher call
 * this; main.ts is the command-line entry. The prompt engine (tokenizer included) is loaded before the
 * port opens, so the first request is not the slow one.
 */
import { listen, type Listening } from "@hopscope/nodekit/listen";
import { silentLogger, type Logger } from "@hopscope/nodekit/logger";
import { createApp } from "./app";
import type { Config } from "./sim/config";
import { loadPromptEngine } from "./sim/engine";
import { ModelState } from "./sim/model-state";
import type { RunnerEvent } from "./sim/runner";

export interface StartDeps {
  logger?: Logger;
  onRunnerEvent?: (e: RunnerEvent) => void;
}

export type RunningServer = Omit<Listening, "server">;

export async function start(config: Config, deps: StartDeps = {}): Promise<RunningServer> {
  const engine = await loadPromptEngine(config.ollamaVersion);
  const app = createApp({
    config,
    engine,
    state: new ModelState(),
    logger: deps.logger ?? silentLogger,
    onRunnerEvent: deps.onRunnerEvent,
  });
  return listen(app.fetch, config.port, config.host);
}
