/** `npm run start -w apps/model-sim`: the stand-in model on 127.0.0.1:11435 (see README.md). */
import { familyOf } from "@hopscope/shared/prompt/version";
import { loadConfig } from "./config";
import { stderrLogger } from "./logger";
import { start } from "./server";

const config = loadConfig();
const server = await start(config, { logger: stderrLogger });
console.error(
  `[model-sim] simulated Ollama ${config.ollamaVersion} (family ${familyOf(config.ollamaVersion).label}; qwen2.5:7b) on ${server.url} — ${config.tokensPerSecond || "unlimited"} tokens/s; not a real model`,
);
const stop = () => {
  server.close().then(
    () => process.exit(0),
    (err: unknown) => {
      console.error("[model-sim] close failed", err);
      process.exit(1);
    },
  );
};
process.once("SIGINT", stop);
process.once("SIGTERM", stop);
