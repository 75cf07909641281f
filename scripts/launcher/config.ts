/**
 * The launcher's configuration: one zod schema over the environment. Every port has an env var, so a
 * port already in use can be moved, and the error message names that variable.
 */
import { z } from "zod";
import { bindHost, httpUrl, port as envPort, readConfig } from "@hopscope/nodekit/config";
import { LessonSchema } from "@hopscope/shared/ollama/lessons";

// Port 0 would start an app somewhere the launcher cannot point the others at: at least 1.
const port = (name: string, fallback: number) => envPort(name, fallback, 1);

export const LauncherConfigSchema = z.object({
  HOST: bindHost(),
  MCP_SERVER_PORT: port("MCP_SERVER_PORT", 8080),
  AGENT_HOST_PORT: port("AGENT_HOST_PORT", 8081),
  SIM_PORT: port("SIM_PORT", 11435),
  UI_PORT: port("UI_PORT", 7070),
  MODEL_TAP_PORT: port("MODEL_TAP_PORT", 7071),
  MCP_TAP_PORT: port("MCP_TAP_PORT", 7072),
  AGENT_TAP_PORT: port("AGENT_TAP_PORT", 7073),
  OLLAMA_URL: httpUrl("OLLAMA_URL", "http://127.0.0.1:11434"),
  OLLAMA_MODEL: z.string().min(1).default("qwen2.5:7b"),
  /** auto: a real Ollama when one answers at OLLAMA_URL with the model pulled, else the stand-in. */
  HOPSCOPE_MODEL: z.enum(["auto", "ollama", "sim"]).default("auto"),
  // Checked here, before anything starts: otherwise a typo would surface as the agent host's crash, stack trace and all.
  AGENT_LESSON: LessonSchema.optional(),
  AGENT_STREAM: z.enum(["true", "false"]).default("false"),
  AGENT_DIALECT: z
    .enum(["ollama", "openai", "anthropic"], { error: "AGENT_DIALECT must be ollama, openai or anthropic" })
    .default("ollama"),
  NOTES_FILE: z.string().optional(),
  DB_FILE: z.string().optional(),
  /** The audience view's address (`--audience-host`); set, it opens the audience view (`--audience`). */
  AUDIENCE_HOST: z.string().trim().min(1).optional(),
  AUDIENCE_PORT: port("AUDIENCE_PORT", 7074),
});
export type LauncherConfig = z.infer<typeof LauncherConfigSchema>;

/** The env var that moves each port, for error messages. */
export const PORT_VARS = {
  MCP_SERVER_PORT: "the MCP server",
  AGENT_HOST_PORT: "the agent host",
  SIM_PORT: "the stand-in model",
  UI_PORT: "the recorder's UI and API",
  MODEL_TAP_PORT: "the recorder's model tap",
  MCP_TAP_PORT: "the recorder's MCP tap",
  AGENT_TAP_PORT: "the recorder's agent tap",
  AUDIENCE_PORT: "the audience view",
} as const;

export function loadLauncherConfig(env: NodeJS.ProcessEnv = process.env): LauncherConfig {
  return readConfig("launcher", LauncherConfigSchema, env);
}
