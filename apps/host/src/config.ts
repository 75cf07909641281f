/**
 * The host's configuration: one zod schema over the environment, with the defaults of
 * docs/architecture.md. Nothing else in apps/host reads `process.env`.
 */
import { z } from "zod";
import { AgentDialectSchema } from "@hopscope/shared/agent/schemas";
import { LessonSchema } from "@hopscope/shared/ollama/lessons";
import { allowedHosts, bindHost, bool, httpUrl, port, readConfig } from "@hopscope/nodekit/config";

const EnvSchema = z.object({
  PORT: port("PORT", 8081),
  HOST: bindHost(),
  /** Host names (besides loopback ones) a request may name, e.g. `host:8081` in docker-compose. */
  ALLOWED_HOSTS: allowedHosts(),
  OLLAMA_URL: httpUrl("OLLAMA_URL", "http://127.0.0.1:11434"),
  OLLAMA_MODEL: z.string().min(1, "OLLAMA_MODEL must name a model, e.g. qwen2.5:7b").default("qwen2.5:7b"),
  /** Sent as `keep_alive` on every /api/chat: a Go duration ("30m") or seconds ("1800", "-1"). */
  OLLAMA_KEEP_ALIVE: z
    .string()
    .regex(
      /^-?\d+(\.\d+)?(ns|us|µs|ms|s|m|h)?$/,
      "OLLAMA_KEEP_ALIVE must be a duration such as 30m, 1h or 300 (seconds)",
    )
    .default("30m"),
  MCP_URL: httpUrl("MCP_URL", "http://127.0.0.1:8080/mcp"),
  AGENT_MAX_STEPS: z.coerce
    .number({ error: "AGENT_MAX_STEPS must be a number" })
    .int("AGENT_MAX_STEPS must be a whole number")
    .min(1, "AGENT_MAX_STEPS must be at least 1")
    .max(100, "AGENT_MAX_STEPS must be at most 100")
    .default(5),
  AGENT_STREAM: bool("AGENT_STREAM", false),
  /** Which API to speak to the model server: Ollama's /api/chat, OpenAI's /v1/chat/completions or Anthropic's /v1/messages. */
  AGENT_DIALECT: z
    .enum(["ollama", "openai", "anthropic"], { error: "AGENT_DIALECT must be ollama, openai or anthropic" })
    .default("ollama")
    .pipe(AgentDialectSchema),
  /** Workshop lesson for the stand-in model, forwarded as `x-hopscope-lesson`; a real Ollama ignores it. */
  AGENT_LESSON: z
    .string()
    .optional()
    .transform((v) => (v === undefined || v.trim() === "" ? null : v.trim()))
    // A typo would otherwise surface only as a 400 from the stand-in on the first question.
    .pipe(LessonSchema.nullable()),
});

/** The environment, parsed and renamed into what the host's modules take. */
export const ConfigSchema = EnvSchema.transform((e) => ({
  port: e.PORT,
  host: e.HOST,
  allowedHosts: e.ALLOWED_HOSTS,
  ollamaUrl: e.OLLAMA_URL,
  model: e.OLLAMA_MODEL,
  // Ollama reads a bare number as seconds and a string as a Go duration; send what the learner meant.
  keepAlive: /^-?\d+$/.test(e.OLLAMA_KEEP_ALIVE) ? Number(e.OLLAMA_KEEP_ALIVE) : e.OLLAMA_KEEP_ALIVE,
  mcpUrl: e.MCP_URL,
  maxSteps: e.AGENT_MAX_STEPS,
  stream: e.AGENT_STREAM,
  dialect: e.AGENT_DIALECT,
  lesson: e.AGENT_LESSON,
}));
export type Config = z.infer<typeof ConfigSchema>;

/** Parse the environment into a Config, or throw one message naming each bad variable and its value. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  return readConfig("host", ConfigSchema, env);
}
