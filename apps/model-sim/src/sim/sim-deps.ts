/** What the simulation needs from the app: engine, model state, pace, and observers for tests. */
import type { Config } from "./config";
import type { PromptEngine } from "./engine";
import type { Logger } from "@hopscope/nodekit/logger";
import type { ModelState } from "./model-state";
import type { RunnerEvent } from "./runner";

export interface SimDeps {
  config: Config;
  engine: PromptEngine;
  state: ModelState;
  logger: Logger;
  /** Told about every token the runner generates (tests use it to prove streaming). */
  onRunnerEvent?: (e: RunnerEvent) => void;
}
