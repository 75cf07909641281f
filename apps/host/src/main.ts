/** `npm run start -w apps/host`: read the environment, start the host, stop cleanly on SIGINT/SIGTERM. */
import { closeOnSignals } from "@hopscope/nodekit/listen";
import { stderrLogger } from "@hopscope/nodekit/logger";
import { loadConfig } from "./config";
import { start } from "./server";

const logger = stderrLogger("host");
const config = loadConfig();
const host = await start(config, { logger });
logger.info(
  { model: config.model, ollamaUrl: config.ollamaUrl, mcpUrl: config.mcpUrl, lesson: config.lesson },
  `agent host on ${host.url}/agent: model ${config.model} at ${config.ollamaUrl}, MCP at ${config.mcpUrl}` +
    (config.lesson ? `, lesson ${config.lesson}` : ""),
);
closeOnSignals(() => host.close(), logger);
