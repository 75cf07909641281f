/** The recorder's configuration: one zod schema over process.env (nothing else reads process.env). */
import { fileURLToPath } from "node:url";
import path from "node:path";
import { z } from "zod";
import { allowedHosts, bindHost, httpUrl, port, positiveInt, readConfig } from "@hopscope/nodekit/config";

/** The repository root: relative DB_FILE / TRACES_DIR / WEB_DIST resolve against it, whatever the cwd. */
export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");

export const ConfigSchema = z.object({
  HOST: bindHost(),
  /** Host names (besides loopback ones) the UI, API, feed and taps accept, e.g. `proxy:7071,proxy:7072` in docker-compose. */
  ALLOWED_HOSTS: allowedHosts(),
  UI_PORT: port("UI_PORT", 7070),
  MODEL_TAP_PORT: port("MODEL_TAP_PORT", 7071),
  MODEL_UPSTREAM: httpUrl("MODEL_UPSTREAM", "http://127.0.0.1:11435"),
  MCP_TAP_PORT: port("MCP_TAP_PORT", 7072),
  MCP_UPSTREAM: httpUrl("MCP_UPSTREAM", "http://127.0.0.1:8080"),
  AGENT_TAP_PORT: port("AGENT_TAP_PORT", 7073),
  AGENT_UPSTREAM: httpUrl("AGENT_UPSTREAM", "http://127.0.0.1:8081"),
  DB_FILE: z.string().default("data/hopscope.sqlite"),
  TRACES_DIR: z.string().default("traces"),
  WEB_DIST: z.string().default("apps/web/dist"),
  /** Bytes of each body kept in SQLite; bodies are always forwarded whole. */
  MAX_BODY_BYTES: positiveInt("MAX_BODY_BYTES", 4 * 1024 * 1024),
  /** Largest trace file accepted by import and replay (a larger one gets 413 and nothing is stored). */
  MAX_IMPORT_BYTES: positiveInt("MAX_IMPORT_BYTES", 32 * 1024 * 1024),
  /** An upstream that sends nothing for this long (no headers, no bytes) gets the client a 504. */
  UPSTREAM_TIMEOUT_MS: positiveInt("UPSTREAM_TIMEOUT_MS", 300_000),
  /**
   * A client whose request head is not complete this long after its first byte gets 408 (node:http's
   * headersTimeout), on the taps and the UI/API port; there a socket that sends nothing this long is closed too.
   */
  HEADERS_TIMEOUT_MS: positiveInt("HEADERS_TIMEOUT_MS", 60_000),
  /** A WebSocket client with more than this many bytes unsent is dropped (it is too slow or dead). */
  WS_MAX_BUFFERED_BYTES: positiveInt("WS_MAX_BUFFERED_BYTES", 8 * 1024 * 1024),
  /** Recorded writes are flushed to SQLite at least this often. */
  FLUSH_INTERVAL_MS: positiveInt("FLUSH_INTERVAL_MS", 50),
  /** Retention: keep at most this many traces (least recently updated unsaved ones go first); 0 keeps all. */
  MAX_TRACES: z.coerce
    .number({ error: "MAX_TRACES must be a number" })
    .int()
    .min(0, "MAX_TRACES must be 0 (keep all) or more")
    .default(10_000),
  /** When set, every finished trace is also sent to this OpenTelemetry backend (OTLP/HTTP, JSON). */
  OTEL_EXPORTER_OTLP_ENDPOINT: z.string().trim().optional(),
  /** Extra headers for it, `key=value,key2=value2` (percent-encoded values), as the OTel spec defines. */
  OTEL_EXPORTER_OTLP_HEADERS: z.string().optional(),
  /** A trace is exported once it has had no new exchange for this long. */
  OTLP_EXPORT_QUIET_MS: positiveInt("OTLP_EXPORT_QUIET_MS", 2000),
  /** When set, the audience view (a read-only listener for a room) binds to this address (`auto`: the LAN address). */
  AUDIENCE_HOST: z.string().trim().min(1).optional(),
  AUDIENCE_PORT: port("AUDIENCE_PORT", 7074),
  /** The notes file the MCP server owns (watched for the file lane; `off`: not watched). */
  NOTES_FILE: z.string().min(1).optional(),
  /** The MCP server's size limit for it (the same variable): a bigger file is shown as too large. */
  NOTES_MAX_BYTES: positiveInt("NOTES_MAX_BYTES", 1024 * 1024),
});

export interface TapConfig {
  port: number;
  upstream: string;
}

/**
 * The room's port faces the network: it holds at most `maxSockets` sockets (viewers' feeds included; the
 * taps, the UI and SQLite share the process's file descriptors), closes a socket that sends no request for
 * `idleMs` or whose request head is not complete by then (a slow-header client), and a request not
 * answered within `requestMs`.
 */
export interface AudienceSocketLimits {
  maxSockets: number;
  idleMs: number;
  requestMs: number;
}

export interface Config {
  host: string;
  /** Host names accepted besides loopback ones (ALLOWED_HOSTS). */
  allowedHosts: readonly string[];
  uiPort: number;
  taps: { model: TapConfig; mcp: TapConfig; agent: TapConfig };
  dbFile: string;
  tracesDir: string;
  webDist: string;
  maxBodyBytes: number;
  maxImportBytes: number;
  upstreamTimeoutMs: number;
  headersTimeoutMs: number;
  wsMaxBufferedBytes: number;
  flushIntervalMs: number;
  /** Keep at most this many traces in SQLite (0: all). */
  maxTraces: number;
  /** Live OTLP export, or null when OTEL_EXPORTER_OTLP_ENDPOINT is not set. */
  otlp: { endpoint: string; headers: string | null; quietMs: number } | null;
  /** The audience listener, or null when AUDIENCE_HOST is not set. */
  audience: { host: string; port: number; limits?: Partial<AudienceSocketLimits> } | null;
  /** The notes file (absolute; null: NOTES_FILE=off), whether it was set explicitly, and its size limit. */
  notes: { file: string | null; explicit: boolean; maxBytes: number };
}

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const c = readConfig("recorder", ConfigSchema, env);
  const fromRoot = (p: string) => path.resolve(REPO_ROOT, p);
  return {
    host: c.HOST,
    allowedHosts: c.ALLOWED_HOSTS,
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
    maxImportBytes: c.MAX_IMPORT_BYTES,
    upstreamTimeoutMs: c.UPSTREAM_TIMEOUT_MS,
    headersTimeoutMs: c.HEADERS_TIMEOUT_MS,
    wsMaxBufferedBytes: c.WS_MAX_BUFFERED_BYTES,
    flushIntervalMs: c.FLUSH_INTERVAL_MS,
    maxTraces: c.MAX_TRACES,
    otlp: c.OTEL_EXPORTER_OTLP_ENDPOINT
      ? {
          endpoint: c.OTEL_EXPORTER_OTLP_ENDPOINT,
          headers: c.OTEL_EXPORTER_OTLP_HEADERS ?? null,
          quietMs: c.OTLP_EXPORT_QUIET_MS,
        }
      : null,
    audience: c.AUDIENCE_HOST ? { host: c.AUDIENCE_HOST, port: c.AUDIENCE_PORT } : null,
    notes: {
      file: c.NOTES_FILE === "off" ? null : fromRoot(c.NOTES_FILE ?? "data/db"),
      explicit: c.NOTES_FILE !== undefined,
      maxBytes: c.NOTES_MAX_BYTES,
    },
  };
}
