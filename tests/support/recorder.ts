/**
 * The recorder alone, as tests start it: the real start() on 127.0.0.1 with the UI, the API and every tap on
 * port 0, SQLite and saved traces in a temp dir, each tap in front of the upstream a test gives it (a tap given
 * none points at a port where nothing listens, never at the default ports a running stack may hold). The UI is
 * not served unless `webDist` is given. `close()` stops it and removes the temp dir, and may be called from a
 * test and again from afterEach/afterAll.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { loadConfig, type Config } from "../../apps/proxy/src/config";
import { start, type RecorderHandle, type StartDeps } from "../../apps/proxy/src/server";

/** The upstream of each tap: an origin such as http://127.0.0.1:41234. */
export interface TapUpstreams {
  model?: string;
  mcp?: string;
  agent?: string;
}

export interface RecorderPlace {
  /** Keep the database here instead of a fresh temp dir (a restart test's second recorder); not removed by close(). */
  dir?: string;
  /** What tests inject into start(): a logger, a short heartbeat, a small queue. */
  deps?: StartDeps;
}

export interface TestRecorder extends RecorderHandle {
  /** Where its database and saved traces are. */
  dir: string;
  config: Config;
  /** Stops the recorder and keeps its dir, for a test that starts another one on the same database. */
  stop(): Promise<void>;
  /** Stops the recorder and removes its temp dir; the second and later calls wait for the first. */
  close(): Promise<void>;
}

/** A port on 127.0.0.1 where nothing listens (the discard service, never run on a test machine). */
const NOWHERE = "http://127.0.0.1:9";

/** The recorder's configuration for a test: loopback, port 0 everywhere, its files under `dir`. */
function recorderConfig(dir: string, upstreams: TapUpstreams = {}, overrides: Partial<Config> = {}): Config {
  return {
    ...loadConfig({}),
    host: "127.0.0.1",
    uiPort: 0,
    taps: {
      model: { port: 0, upstream: upstreams.model ?? NOWHERE },
      mcp: { port: 0, upstream: upstreams.mcp ?? NOWHERE },
      agent: { port: 0, upstream: upstreams.agent ?? NOWHERE },
    },
    dbFile: path.join(dir, "hopscope.sqlite"),
    tracesDir: path.join(dir, "traces"),
    webDist: path.join(dir, "dist"),
    ...overrides,
  };
}

export async function startRecorder(
  upstreams: TapUpstreams = {},
  overrides: Partial<Config> = {},
  place: RecorderPlace = {},
): Promise<TestRecorder> {
  const dir = place.dir ?? (await mkdtemp(path.join(tmpdir(), "hopscope-recorder-")));
  const removeDir = () => (place.dir ? Promise.resolve() : rm(dir, { recursive: true, force: true }));
  const config = recorderConfig(dir, upstreams, overrides);
  let handle: RecorderHandle;
  try {
    handle = await start(config, place.deps);
  } catch (err) {
    await removeDir();
    throw err;
  }
  let closing: Promise<void> | undefined;
  return {
    ...handle,
    dir,
    config,
    stop: () => handle.close(),
    close: () =>
      (closing ??= (async () => {
        try {
          await handle.close();
        } finally {
          await removeDir();
        }
      })()),
  };
}

export interface Closable {
  close(): unknown;
}

/**
 * Closes each of `things` in the order given (a recorder before the upstreams behind it), passing over unset
 * ones, for afterEach/afterAll: every one is closed even when an earlier one fails, and the failure is thrown after.
 */
export async function closeAll(...things: (Closable | null | undefined)[]): Promise<void> {
  const failures: unknown[] = [];
  for (const thing of things) {
    try {
      await thing?.close();
    } catch (err) {
      failures.push(err);
    }
  }
  if (failures.length === 1) throw failures[0];
  if (failures.length > 1) throw new AggregateError(failures, `${failures.length} closes failed`);
}
