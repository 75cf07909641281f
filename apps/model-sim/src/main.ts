/** `npm run start -w apps/model-sim`: the stand-in model on 127.0.0.1:11435 (see README.md). */
import { closeOnSignals } from "@hopscope/nodekit/listen";
import { stderrLogger } from "@hopscope/nodekit/logger";
import { familyOf } from "@hopscope/shared/prompt/version";
import { loadConfig } from "./sim/config";
import { start } from "./server";

const logger = stderrLogger("model-sim");
const config = loadConfig();
const server = await start(config, { logger });
logger.info(
  { ollamaVersion: config.ollamaVersion, tokensPerSecond: config.tokensPerSecond },
  `simulated Ollama ${config.ollamaVersion} (family ${familyOf(config.ollamaVersion).label}; qwen2.5:7b) on ${server.url} — ${config.tokensPerSecond || "unlimited"} tokens/s; not a real model`,
);
closeOnSignals(() => server.close(), logger);
