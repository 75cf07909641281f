/** `npm run start -w apps/mcp-server`: load the env, start, log one line to stderr, close on signals. */
import { loadConfig } from "./config";
import { start } from "./server";

const config = loadConfig();
const running = await start(config);
console.error(`mcp-server: POST ${running.url}/mcp (notes file ${config.notesFile})`);

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    running.close().then(
      () => process.exit(0),
      (err: unknown) => {
        console.error("mcp-server: error while closing:", err);
        process.exit(1);
      },
    );
  });
}
