/**
 * model-sim's configuration: one zod schema over the environment, with the defaults of
 * docs/architecture.md. Nothing else in apps/model-sim reads `process.env`.
 */
import { z } from "zod";
import { allowedHosts, bindHost, nonNegative, port, readConfig } from "@hopscope/nodekit/config";
import { DEFAULT_OLLAMA_VERSION } from "@hopscope/shared/prompt/version";

const EnvSchema = z.object({
  // 11435, next to Ollama's 11434, so both can run at once.
  PORT: port("PORT", 11435),
  HOST: bindHost(),
  /** Host names (besides loopback ones) a request may name, e.g. `model-sim:11435` in docker-compose. */
  ALLOWED_HOSTS: allowedHosts(),
  /** Pace of generated tokens. ~30 tokens/s is qwen2.5:7b Q4_K_M on a laptop GPU; 0 = no delay (tests). */
  SIM_TOKENS_PER_SECOND: nonNegative("SIM_TOKENS_PER_SECOND", 30, "tokens per second"),
  /** The Ollama version it reports and imitates, any version mapped to its family (familyOf): default today's. */
  SIM_OLLAMA_VERSION: z
    .string()
    .regex(/^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$/, "SIM_OLLAMA_VERSION must be a version such as 0.13.5")
    .default(DEFAULT_OLLAMA_VERSION),
  /** Also serve qwen3-coder:30b, a model Ollama renders with a built-in Go renderer (./builtin-renderer.ts). */
  SIM_BUILTIN_RENDERER_MODEL: z
    .enum(["true", "false", "1", "0"], { error: "SIM_BUILTIN_RENDERER_MODEL must be true or false" })
    .default("false")
    .transform((v) => v === "true" || v === "1"),
  /** Time a cold load takes (first request, or after keep_alive expired). Real: seconds; 0 in tests. */
  SIM_LOAD_MS: nonNegative("SIM_LOAD_MS", 1500, "milliseconds"),
  /** The `slow` lesson: a long cold load on every request... */
  SIM_SLOW_LOAD_MS: nonNegative("SIM_SLOW_LOAD_MS", 6000, "milliseconds"),
  /**
   * Ollama's own setting, honoured as Ollama honours it (envconfig.ContextLength): the num_ctx of a request that
   * sets none. Unset or 0: Ollama's default for the imitated version on a machine with no GPU (./context-length.ts).
   */
  OLLAMA_CONTEXT_LENGTH: z.coerce
    .number({ error: "OLLAMA_CONTEXT_LENGTH must be a number of tokens, such as 32768" })
    .int("OLLAMA_CONTEXT_LENGTH must be a whole number of tokens, such as 32768")
    .min(0, "OLLAMA_CONTEXT_LENGTH must be 0 (Ollama's default) or a number of tokens, such as 32768")
    .default(0),
  /** ...and slow tokens, like a 7B model on a CPU. */
  SIM_SLOW_TOKENS_PER_SECOND: nonNegative("SIM_SLOW_TOKENS_PER_SECOND", 3, "tokens per second"),
});

/** The environment, parsed and renamed into what model-sim's modules take. */
export const ConfigSchema = EnvSchema.transform((e) => ({
  port: e.PORT,
  host: e.HOST,
  allowedHosts: e.ALLOWED_HOSTS,
  tokensPerSecond: e.SIM_TOKENS_PER_SECOND,
  ollamaVersion: e.SIM_OLLAMA_VERSION,
  builtinRendererModel: e.SIM_BUILTIN_RENDERER_MODEL,
  loadMs: e.SIM_LOAD_MS,
  slowLoadMs: e.SIM_SLOW_LOAD_MS,
  slowTokensPerSecond: e.SIM_SLOW_TOKENS_PER_SECOND,
  contextLength: e.OLLAMA_CONTEXT_LENGTH,
}));
export type Config = z.infer<typeof ConfigSchema>;

/** Defaults, for tests and the launcher: `{ ...defaultConfig(), port: 0, tokensPerSecond: 0 }`. */
export function defaultConfig(): Config {
  return ConfigSchema.parse({});
}

/** Parse the environment into a Config, or throw one message naming each bad variable and its value. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  return readConfig("model-sim", ConfigSchema, env);
}
