/**
 * The only reader of process.env for the notes MCP server. Relative NOTES_FILE paths resolve against
 * the repository root (not the cwd), so `npm run start -w apps/mcp-server` and a start from the root
 * use the same `data/db`.
 */
import { isAbsolute, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { z } from "zod";
import { allowedHosts, bindHost, port, positiveInt, readConfig } from "@hopscope/nodekit/config";

/** apps/mcp-server/src → the repository root. */
export const REPO_ROOT = fileURLToPath(new URL("../../../", import.meta.url));

const MiB = 1024 * 1024;

const EnvSchema = z.object({
  PORT: port("PORT", 8080),
  HOST: bindHost(),
  /** Host names (besides loopback ones) a request may name, e.g. `mcp-server:8080` in docker-compose. */
  ALLOWED_HOSTS: allowedHosts(),
  NOTES_FILE: z.string().min(1).default("data/db"),
  /** Largest accepted POST body; bigger ones get 413. */
  MCP_MAX_BODY_BYTES: positiveInt("MCP_MAX_BODY_BYTES", MiB),
  /** Largest notes file a tool may grow it to. */
  NOTES_MAX_BYTES: positiveInt("NOTES_MAX_BYTES", MiB),
});

export interface Config {
  port: number;
  host: string;
  /** Host names accepted besides loopback ones (ALLOWED_HOSTS); none when left out. */
  allowedHosts?: readonly string[];
  /** Absolute path of the notes file. */
  notesFile: string;
  maxBodyBytes: number;
  maxNotesBytes: number;
}

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const e = readConfig("mcp-server", EnvSchema, env);
  return {
    port: e.PORT,
    host: e.HOST,
    allowedHosts: e.ALLOWED_HOSTS,
    notesFile: isAbsolute(e.NOTES_FILE) ? e.NOTES_FILE : resolve(REPO_ROOT, e.NOTES_FILE),
    maxBodyBytes: e.MCP_MAX_BODY_BYTES,
    maxNotesBytes: e.NOTES_MAX_BYTES,
  };
}
