/** `npm run start -w apps/proxy`: the recorder with its three taps and the UI on UI_PORT. */
import { loadConfig } from "./config";
import { start } from "./server";
import { stderrLogger } from "./logger";

const config = loadConfig();
const handle = await start(config, { logger: stderrLogger });
const t = handle.taps;
process.stderr.write(
  `[hopscope] recorder on ${handle.url} (UI, /api, /ws); taps: agent ${t.agent.url} → ${t.agent.upstream}, ` +
    `model ${t.model.url} → ${t.model.upstream}, mcp ${t.mcp.url} → ${t.mcp.upstream}; db ${config.dbFile}\n`,
);
const stop = () => {
  handle.close().then(
    () => process.exit(0),
    (err: unknown) => {
      process.stderr.write(`[hopscope] error while stopping: ${(err as Error).stack ?? String(err)}\n`);
      process.exit(1);
    },
  );
};
process.once("SIGINT", stop);
process.once("SIGTERM", stop);
