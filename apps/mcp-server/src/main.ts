/** `npm run start -w apps/mcp-server`: load the env, start, log one line to stderr, close on signals. */
import { closeOnSignals } from "@hopscope/nodekit/listen";
import { stderrLogger } from "@hopscope/nodekit/logger";
import { loadConfig } from "./config";
import { start } from "./server";

const logger = stderrLogger("mcp-server");
const config = loadConfig();
const running = await start(config, logger);
logger.info({ notesFile: config.notesFile }, `mcp-server: POST ${running.url}/mcp (notes file ${config.notesFile})`);
closeOnSignals(() => running.close(), logger);
