/**
 * The only reader of process.env for the notes MCP server. Relative NOTES_FILE paths resolve against
 * the repository root (not the cwd), so `npm run start -w apps/mcp-server` and a start from the root
 * use the same `data/db`.
 */
import { isAbsolute, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { z } from "zod";

/** apps/mcp-server/src → the repository root. */
export const REPO_ROOT = fileURLToPath(new URL("../../../", import.meta.url));

const MiB = 1024 * 1024;

const EnvSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().min(1).default("127.0.0.1"),
  NOTES_FILE: z.string().min(1).default("data/db"),
  /** Largest accepted POST body; bigger ones get 413. */
  MCP_MAX_BODY_BYTES: z.coerce.number().int().positive().default(MiB),
  /** Largest notes file a tool may grow it to. */
  NOTES_MAX_BYTES: z.coerce.number().int().positive().default(MiB),
});

export interface Config {
  port: number;
  host: string;
  /** Absolute path of the notes file. */
  notesFile: string;
  maxBodyBytes: number;
  maxNotesBytes: number;
}

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) {
    const why = parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ");
    throw new Error(`invalid mcp-server environment (${why}); see docs/mcp-server.md for the variables`);
  }
  const e = parsed.data;
  return {
    port: e.PORT,
    host: e.HOST,
    notesFile: isAbsolute(e.NOTES_FILE) ? e.NOTES_FILE : resolve(REPO_ROOT, e.NOTES_FILE),
    maxBodyBytes: e.MCP_MAX_BODY_BYTES,
    maxNotesBytes: e.NOTES_MAX_BYTES,
  };
}
