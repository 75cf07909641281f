/**
 * The whole hopscope stack in-process for a browser test, every server on 127.0.0.1: the notes MCP
 * server (temp notes file), the stand-in model, the recorder (its three taps in front of them and of
 * the host, a temp SQLite file and traces/ dir, serving a freshly built UI), and the agent host wired
 * through the recorder's taps — the same topology `npm start` runs.
 *
 * One cycle has to be broken: the recorder's agent tap forwards to the host, and the host calls the
 * recorder's model and MCP taps. The recorder takes its upstreams at start, so the host's port is
 * reserved first (bind port 0, read it, release it) and the host then binds exactly that port. The
 * window between release and rebind is microseconds on a loopback interface.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig as loadHostConfig } from "../../../apps/host/src/config";
import { start as startHost } from "../../../apps/host/src/server";
import { loadConfig as loadMcpConfig } from "../../../apps/mcp-server/src/config";
import { start as startMcp } from "../../../apps/mcp-server/src/server";
import { defaultConfig as simDefaults } from "../../../apps/model-sim/src/config";
import { start as startSim } from "../../../apps/model-sim/src/server";
import { loadConfig as loadProxyConfig } from "../../../apps/proxy/src/config";
import { start as startProxy } from "../../../apps/proxy/src/server";
import type { Lesson } from "@hopscope/shared/ollama/lessons";

export interface RecordedStack {
  /** The recorder's UI/API origin: open it in the browser. */
  uiUrl: string;
  tracesDir: string;
  /** Stops the recorder (UI, API, feed, taps), for testing what the browser does meanwhile. */
  stopRecorder(): Promise<void>;
  /** Starts it again on the same ports and database. */
  startRecorder(): Promise<void>;
  close(): Promise<void>;
}

export interface RecordedStackOptions {
  /** The built UI (see build-ui.ts). */
  webDist: string;
  /** Stand-in model pace in tokens per second (0 = instant). */
  simTokensPerSecond?: number;
  /** Let the host stream model responses (so chunks are recorded). */
  stream?: boolean;
  /** A workshop lesson for the stand-in model (the host forwards it on every model call). */
  lesson?: Lesson;
}

function reservePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const address = srv.address();
      const port = typeof address === "object" && address ? address.port : 0;
      srv.close((err) => (err ? reject(err) : resolve(port)));
    });
  });
}

export async function startRecordedStack(opts: RecordedStackOptions): Promise<RecordedStack> {
  const closers: (() => Promise<void>)[] = [];
  const close = async () => {
    for (const c of closers.reverse()) await c();
  };
  try {
    const dir = await mkdtemp(join(tmpdir(), "hopscope-browser-"));
    closers.push(() => rm(dir, { recursive: true, force: true }));
    const tracesDir = join(dir, "traces");

    const mcp = await startMcp({ ...loadMcpConfig({}), port: 0, host: "127.0.0.1", notesFile: join(dir, "db") });
    closers.push(() => mcp.close());
    const sim = await startSim({ ...simDefaults(), port: 0, host: "127.0.0.1", loadMs: 0, tokensPerSecond: opts.simTokensPerSecond ?? 0 });
    closers.push(() => sim.close());

    const hostPort = await reservePort();
    const base = loadProxyConfig({});
    const proxyConfig = {
      ...base,
      host: "127.0.0.1",
      uiPort: 0,
      taps: {
        model: { port: 0, upstream: sim.url },
        mcp: { port: 0, upstream: mcp.url },
        agent: { port: 0, upstream: `http://127.0.0.1:${hostPort}` },
      },
      dbFile: join(dir, "hopscope.sqlite"),
      tracesDir,
      webDist: opts.webDist,
    };
    let proxy = await startProxy(proxyConfig);
    let running = true;
    closers.push(async () => {
      if (running) await proxy.close();
    });
    const first = proxy;
    // A restart binds the same ports, so the host (which knows the tap URLs) and the browser find it again.
    const samePorts = {
      ...proxyConfig,
      uiPort: first.port,
      taps: {
        model: { ...proxyConfig.taps.model, port: first.taps.model.port },
        mcp: { ...proxyConfig.taps.mcp, port: first.taps.mcp.port },
        agent: { ...proxyConfig.taps.agent, port: first.taps.agent.port },
      },
    };

    const host = await startHost({
      ...loadHostConfig({}),
      port: hostPort,
      host: "127.0.0.1",
      ollamaUrl: proxy.taps.model.url,
      mcpUrl: `${proxy.taps.mcp.url}/mcp`,
      stream: opts.stream ?? false,
      lesson: opts.lesson ?? null,
    });
    closers.push(() => host.close());
    return {
      uiUrl: first.url,
      tracesDir,
      async stopRecorder() {
        running = false;
        await proxy.close();
      },
      async startRecorder() {
        proxy = await startProxy(samePorts);
        running = true;
      },
      close,
    };
  } catch (err) {
    await close();
    throw err;
  }
}
