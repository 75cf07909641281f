/** The recorder's configuration: one zod schema over process.env (nothing else reads process.env). */
import { fileURLToPath } from "node:url";
import path from "node:path";
import { z } from "zod";

/** The repository root: relative DB_FILE / TRACES_DIR / WEB_DIST resolve against it, whatever the cwd. */
export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");

const port = (name: string, def: number) =>
  z.coerce
    .number({ error: `${name} must be a port number (0-65535)` })
    .int()
    .min(0, `${name} must be between 0 and 65535`)
    .max(65535, `${name} must be between 0 and 65535`)
    .default(def);

const url = (name: string, def: string) =>
  z
    .string()
    .default(def)
    .refine((v) => /^https?:\/\/[^/]+/.test(v) && URL.canParse(v), `${name} must be an http(s) URL such as ${def}`)
    .transform((v) => v.replace(/\/+$/, ""));

const positiveInt = (name: string, def: number) =>
  z.coerce.number({ error: `${name} must be a number` }).int().positive(`${name} must be a positive integer`).default(def);

export const ConfigSchema = z.object({
  HOST: z.string().default("127.0.0.1"),
  UI_PORT: port("UI_PORT", 7070),
  MODEL_TAP_PORT: port("MODEL_TAP_PORT", 7071),
  MODEL_UPSTREAM: url("MODEL_UPSTREAM", "http://127.0.0.1:11435"),
  MCP_TAP_PORT: port("MCP_TAP_PORT", 7072),
  MCP_UPSTREAM: url("MCP_UPSTREAM", "http://127.0.0.1:8080"),
  AGENT_TAP_PORT: port("AGENT_TAP_PORT", 7073),
  AGENT_UPSTREAM: url("AGENT_UPSTREAM", "http://127.0.0.1:8081"),
  DB_FILE: z.string().default("data/hopscope.sqlite"),
  TRACES_DIR: z.string().default("traces"),
  WEB_DIST: z.string().default("apps/web/dist"),
  /** Bytes of each body kept in SQLite; bodies are always forwarded whole. */
  MAX_BODY_BYTES: positiveInt("MAX_BODY_BYTES", 4 * 1024 * 1024),
  /** An upstream that sends nothing for this long (no headers, no bytes) gets the client a 504. */
  UPSTREAM_TIMEOUT_MS: positiveInt("UPSTREAM_TIMEOUT_MS", 300_000),
  /** A WebSocket client with more than this many bytes unsent is dropped (it is too slow or dead). */
  WS_MAX_BUFFERED_BYTES: positiveInt("WS_MAX_BUFFERED_BYTES", 8 * 1024 * 1024),
  /** Recorded writes are flushed to SQLite at least this often. */
  FLUSH_INTERVAL_MS: positiveInt("FLUSH_INTERVAL_MS", 50),
  /** Retention: keep at most this many traces (least recently updated unsaved ones go first); 0 keeps all. */
  MAX_TRACES: z.coerce.number({ error: "MAX_TRACES must be a number" }).int().min(0, "MAX_TRACES must be 0 (keep all) or more").default(10_000),
  /** When set, every finished trace is also sent to this OpenTelemetry backend (OTLP/HTTP, JSON). */
  OTEL_EXPORTER_OTLP_ENDPOINT: z.string().trim().optional(),
  /** Extra headers for it, `key=value,key2=value2` (percent-encoded values), as the OTel spec defines. */
  OTEL_EXPORTER_OTLP_HEADERS: z.string().optional(),
  /** A trace is exported once it has had no new exchange for this long. */
  OTLP_EXPORT_QUIET_MS: positiveInt("OTLP_EXPORT_QUIET_MS", 2000),
  /** When set, the audience view (a read-only listener for a room) binds to this address (`auto`: the LAN address). */
  AUDIENCE_HOST: z.string().trim().min(1).optional(),
  AUDIENCE_PORT: port("AUDIENCE_PORT", 7074),
});

export type RawConfig = z.infer<typeof ConfigSchema>;

export interface TapConfig {
  port: number;
  upstream: string;
}

export interface Config {
  host: string;
  uiPort: number;
  taps: { model: TapConfig; mcp: TapConfig; agent: TapConfig };
  dbFile: string;
  tracesDir: string;
  webDist: string;
  maxBodyBytes: number;
  upstreamTimeoutMs: number;
  wsMaxBufferedBytes: number;
  flushIntervalMs: number;
  /** Keep at most this many traces in SQLite (0: all). */
  maxTraces: number;
  /** Live OTLP export, or null when OTEL_EXPORTER_OTLP_ENDPOINT is not set. */
  otlp: { endpoint: string; headers: string | null; quietMs: number } | null;
  /** The audience listener, or null when AUDIENCE_HOST is not set. */
  audience: { host: string; port: number } | null;
}

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const parsed = ConfigSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `${i.path.join(".")}=${JSON.stringify(env[String(i.path[0])] ?? "")}: ${i.message}`);
    throw new Error(`invalid configuration:\n  ${lines.join("\n  ")}`);
  }
  const c = parsed.data;
  const fromRoot = (p: string) => path.resolve(REPO_ROOT, p);
  return {
    host: c.HOST,
    uiPort: c.UI_PORT,
    taps: {
      model: { port: c.MODEL_TAP_PORT, upstream: c.MODEL_UPSTREAM },
      mcp: { port: c.MCP_TAP_PORT, upstream: c.MCP_UPSTREAM },
      agent: { port: c.AGENT_TAP_PORT, upstream: c.AGENT_UPSTREAM },
    },
    dbFile: fromRoot(c.DB_FILE),
    tracesDir: fromRoot(c.TRACES_DIR),
    webDist: fromRoot(c.WEB_DIST),
    maxBodyBytes: c.MAX_BODY_BYTES,
    upstreamTimeoutMs: c.UPSTREAM_TIMEOUT_MS,
    wsMaxBufferedBytes: c.WS_MAX_BUFFERED_BYTES,
    flushIntervalMs: c.FLUSH_INTERVAL_MS,
    maxTraces: c.MAX_TRACES,
    otlp: c.OTEL_EXPORTER_OTLP_ENDPOINT
      ? { endpoint: c.OTEL_EXPORTER_OTLP_ENDPOINT, headers: c.OTEL_EXPORTER_OTLP_HEADERS ?? null, quietMs: c.OTLP_EXPORT_QUIET_MS }
      : null,
    audience: c.AUDIENCE_HOST ? { host: c.AUDIENCE_HOST, port: c.AUDIENCE_PORT } : null,
  };
}
