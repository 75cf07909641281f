/** `npm run start -w apps/host`: read the environment, start the host, stop cleanly on SIGINT/SIGTERM. */
import { loadConfig } from "./config";
import { stderrLogger } from "./logger";
import { start } from "./server";

const config = loadConfig();
const host = await start(config, { logger: stderrLogger });
stderrLogger.info(
  `agent host on ${host.url}/agent: model ${config.model} at ${config.ollamaUrl}, MCP at ${config.mcpUrl}` +
    (config.lesson ? `, lesson ${config.lesson}` : ""),
);

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    host.close().then(
      () => process.exit(0),
      (err: unknown) => {
        stderrLogger.error("could not close the host cleanly", err);
        process.exit(1);
      },
    );
  });
}
