/**
 * The recorder alone (no host, no model) for the MCP client tests: SQLite in `dir`, every listener on
 * 127.0.0.1 and port 0, the MCP tap in front of `mcpUpstream` (the model and agent taps point nowhere).
 */
import path from "node:path";
import { loadConfig, type Config } from "../../apps/proxy/src/config";
import { start, type RecorderHandle } from "../../apps/proxy/src/server";

const NOWHERE = "http://127.0.0.1:9";

export function tapRecorderConfig(dir: string, opts: { mcpUpstream?: string; webDist?: string } = {}): Config {
  return {
    ...loadConfig({}),
    host: "127.0.0.1",
    uiPort: 0,
    taps: {
      model: { port: 0, upstream: NOWHERE },
      mcp: { port: 0, upstream: opts.mcpUpstream ?? NOWHERE },
      agent: { port: 0, upstream: NOWHERE },
    },
    dbFile: path.join(dir, "hopscope.sqlite"),
    tracesDir: path.join(dir, "traces"),
    ...(opts.webDist ? { webDist: opts.webDist } : {}),
  };
}

export function startTapRecorder(
  dir: string,
  opts: { mcpUpstream?: string; webDist?: string } = {},
): Promise<RecorderHandle> {
  return start(tapRecorderConfig(dir, opts));
}
