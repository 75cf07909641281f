/** Start the host on `config.host:config.port` (port 0 picks a free one, for tests). */
import { listen, type Listening } from "@hopscope/nodekit/listen";
import { createApp, type AppDeps } from "./app";
import type { Config } from "./config";

export type RunningHost = Omit<Listening, "server">;

export function start(config: Config, deps: Omit<AppDeps, "config"> = {}): Promise<RunningHost> {
  return listen(createApp({ ...deps, config }).fetch, config.port, config.host);
}
