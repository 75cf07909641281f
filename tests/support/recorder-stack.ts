/**
 * The real full stack in-process with the recorder in the loop, the topology `npm start` runs: the notes
 * MCP server, the stand-in model, the recorder (apps/proxy: SQLite, three taps, API) and the agent host,
 * every server on 127.0.0.1 and port 0, files in a temp dir. The host reaches the model and the MCP server
 * through the recorder's taps, and questions go in through the agent tap, so every hop is recorded.
 *
 * One cycle has to be broken: the agent tap forwards to the host, and the host calls the model and MCP
 * taps. The recorder takes its upstreams at start, so the host's port is reserved first (bind port 0,
 * read it, release it) and the host then binds exactly that port; if another server took it meanwhile, the stack starts again.
 *
 * @example
 *   const stack = await startRecorderStack({ lesson: "loop" });
 *   await stack.ask("Add buy milk to my notes");
 *   const trace = await stack.waitForTrace("Add buy milk to my notes");
 *   await stack.close();
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Lesson } from "@hopscope/shared/ollama/lessons";
import { TraceListSchema } from "@hopscope/shared/trace/api";
import { TraceSchema, type Trace } from "@hopscope/shared/trace/schemas";
import { loadConfig as loadHostConfig, type Config as HostConfig } from "../../apps/host/src/config";
import { start as startHost } from "../../apps/host/src/server";
import { loadConfig as loadMcpConfig } from "../../apps/mcp-server/src/config";
import { start as startMcp } from "../../apps/mcp-server/src/server";
import { defaultConfig as simDefaults, type Config as SimConfig } from "../../apps/model-sim/src/sim/config";
import { start as startSim } from "../../apps/model-sim/src/server";
import { loadConfig as loadProxyConfig } from "../../apps/proxy/src/config";
import { start as startProxy } from "../../apps/proxy/src/server";
import { postJson, type AskResult } from "./stack";

export interface RecorderStackOptions {
  /** Stand-in pace in tokens per second; default 0 (instant, for tests). */
  simTokensPerSecond?: number;
  /** Other stand-in settings; by default no cold-load pause (`loadMs: 0`). */
  sim?: Partial<SimConfig>;
  /** AGENT_LESSON for the host (sent to the stand-in as x-hopscope-lesson). */
  lesson?: Lesson | null;
  /** AGENT_STREAM for the host. */
  stream?: boolean;
  /** Any other host settings (maxSteps, …). */
  host?: Partial<HostConfig>;
  /** Text the notes file starts with (default empty). */
  notes?: string;
  /** Where POST /api/traces/:id/save writes (default a folder in the temp dir). */
  tracesDir?: string;
  /** The built UI to serve (default the recorder's own default, apps/web/dist). */
  webDist?: string;
  /** The model tap's upstream instead of the stand-in (a real Ollama, for the opt-in tests). */
  modelUpstream?: string;
  /** Live OTLP export to this OTLP/HTTP endpoint (OTEL_EXPORTER_OTLP_ENDPOINT), a trace once quiet for quietMs. */
  otlp?: { endpoint: string; quietMs: number };
}

export interface RecorderStack {
  /** The recorder's UI/API origin. */
  uiUrl: string;
  /** The agent tap's origin: POST `${agentTapUrl}/agent` is a recorded question. */
  agentTapUrl: string;
  /** The host's own origin (bypasses the recorder). */
  hostUrl: string;
  /** The notes MCP server's and the stand-in's own origins, and the recorder's three taps. */
  mcpServerUrl: string;
  simUrl: string;
  tapUrls: { model: string; mcp: string; agent: string };
  notesFile: string;
  tracesDir: string;
  readNotes(): Promise<string>;
  /** POST /agent through the agent tap, as a learner's curl would (no traceparent: the tap starts one). */
  ask(message: string, conversationId?: string, extra?: Record<string, unknown>): Promise<AskResult>;
  /**
   * The trace of the latest `ask(message)`, once the recorder has stored it whole: its `/agent` exchange
   * has ended and every exchange is complete. Fails after `timeoutMs` with what it saw.
   */
  waitForTrace(message: string, timeoutMs?: number): Promise<Trace>;
  /** GET a recorder API path and return the body as text (throws on an HTTP error, with the body). */
  api(path: string, init?: RequestInit): Promise<string>;
  /** Stops the recorder (UI, API, feed, taps), for testing what clients do meanwhile. */
  stopRecorder(): Promise<void>;
  /** Starts it again on the same ports and database, so the host and browsers find it again. */
  startRecorder(): Promise<void>;
  close(): Promise<void>;
}

/** A free port on 127.0.0.1, released before it is returned (see the module comment). */
export function reservePort(): Promise<number> {
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

/**
 * The stack, started again (on new ports) when a reserved port was taken meanwhile by another test file's
 * server: the reservation is released before the host binds it, and under a full parallel run that window
 * is long enough to lose it (seen in CI as EADDRINUSE).
 */
export async function startRecorderStack(opts: RecorderStackOptions = {}): Promise<RecorderStack> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startRecorderStackOnce(opts);
    } catch (err) {
      if (attempt >= 3 || !String((err as Error).message).includes("EADDRINUSE")) throw err;
    }
  }
}

async function startRecorderStackOnce(opts: RecorderStackOptions): Promise<RecorderStack> {
  const closers: (() => Promise<void>)[] = [];
  const close = async () => {
    // Reverse order: the host goes before the taps it calls, the recorder before the database folder.
    for (const c of closers.reverse()) await c();
  };
  try {
    const dir = await mkdtemp(join(tmpdir(), "hopscope-recorder-stack-"));
    closers.push(() => rm(dir, { recursive: true, force: true }));
    // data/db, as `npm start` lays it out (the timeline's file lane shows it as …/data/db).
    await mkdir(join(dir, "data"));
    const notesFile = join(dir, "data", "db");
    await writeFile(notesFile, opts.notes ?? "");
    const tracesDir = opts.tracesDir ?? join(dir, "traces");

    const mcp = await startMcp({ ...loadMcpConfig({}), port: 0, host: "127.0.0.1", notesFile });
    closers.push(() => mcp.close());
    const sim = await startSim({
      ...simDefaults(),
      port: 0,
      host: "127.0.0.1",
      loadMs: 0,
      tokensPerSecond: opts.simTokensPerSecond ?? 0,
      ...opts.sim,
    });
    closers.push(() => sim.close());

    const hostPort = await reservePort();
    const proxyConfig = recorderConfig(opts, { dir, notesFile, tracesDir, hostPort, mcpUrl: mcp.url, simUrl: sim.url });
    const first = await startProxy(proxyConfig);
    let proxy = first;
    let running = true;
    closers.push(async () => {
      if (running) await proxy.close();
    });
    // A restart binds the same ports, so the host (which knows the tap URLs) and browsers find it again.
    const samePorts = samePortsAs(proxyConfig, first);

    const host = await startHost({
      ...loadHostConfig({}),
      port: hostPort,
      host: "127.0.0.1",
      ollamaUrl: proxy.taps.model.url,
      mcpUrl: `${proxy.taps.mcp.url}/mcp`,
      lesson: opts.lesson ?? null,
      stream: opts.stream ?? false,
      ...opts.host,
    });
    closers.push(() => host.close());

    const agentTapUrl = first.taps.agent.url;
    const { api, ask, waitForTrace } = questions(first.url, agentTapUrl);
    return {
      uiUrl: first.url,
      agentTapUrl,
      hostUrl: host.url,
      mcpServerUrl: mcp.url,
      simUrl: sim.url,
      tapUrls: { model: first.taps.model.url, mcp: first.taps.mcp.url, agent: agentTapUrl },
      notesFile,
      tracesDir,
      readNotes: () => readFile(notesFile, "utf8"),
      ask,
      waitForTrace,
      api,
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

type ProxyConfig = ReturnType<typeof loadProxyConfig>;

/** The recorder's config for the stack: its taps in front of the stand-in, the MCP server and the host. */
function recorderConfig(
  opts: RecorderStackOptions,
  at: { dir: string; notesFile: string; tracesDir: string; hostPort: number; mcpUrl: string; simUrl: string },
): ProxyConfig {
  const proxyDefaults = loadProxyConfig({});
  return {
    ...proxyDefaults,
    host: "127.0.0.1",
    uiPort: 0,
    taps: {
      model: { port: 0, upstream: opts.modelUpstream ?? at.simUrl },
      mcp: { port: 0, upstream: at.mcpUrl },
      agent: { port: 0, upstream: `http://127.0.0.1:${at.hostPort}` },
    },
    dbFile: join(at.dir, "hopscope.sqlite"),
    tracesDir: at.tracesDir,
    webDist: opts.webDist ?? proxyDefaults.webDist,
    // The recorder watches the MCP server's own notes file (the file lane), as `npm start` sets it up.
    notes: { ...proxyDefaults.notes, file: at.notesFile, explicit: true },
    ...(opts.otlp ? { otlp: { ...opts.otlp, headers: null } } : {}),
  };
}

/** The same config on the ports the first start bound. */
function samePortsAs(config: ProxyConfig, first: Awaited<ReturnType<typeof startProxy>>): ProxyConfig {
  return {
    ...config,
    uiPort: first.port,
    taps: {
      model: { ...config.taps.model, port: first.taps.model.port },
      mcp: { ...config.taps.mcp, port: first.taps.mcp.port },
      agent: { ...config.taps.agent, port: first.taps.agent.port },
    },
  };
}

/** Asking through the agent tap, and the recorder's API to wait for the trace a question made. */
function questions(uiUrl: string, agentTapUrl: string): Pick<RecorderStack, "api" | "ask" | "waitForTrace"> {
  const api = async (path: string, init?: RequestInit) => {
    const res = await fetch(`${uiUrl}${path}`, init);
    const text = await res.text();
    if (!res.ok) throw new Error(`${init?.method ?? "GET"} ${path} → ${res.status}: ${text.slice(0, 500)}`);
    return text;
  };
  // When each question was last asked: an earlier trace of the same question is never mistaken for it.
  const askedAt = new Map<string, number>();
  return {
    api,
    ask: (message, conversationId, extra = {}) => {
      askedAt.set(message, Date.now());
      return postJson(
        `${agentTapUrl}/agent`,
        conversationId === undefined ? { message, ...extra } : { message, conversationId, ...extra },
      );
    },
    waitForTrace: async (message, timeoutMs = 10_000) => {
      const since = askedAt.get(message);
      if (since === undefined) throw new Error(`waitForTrace: "${message}" was not asked through this stack's ask()`);
      return waitForTrace(api, message, since, timeoutMs);
    },
  };
}

const DONE = new Set(["complete", "error", "aborted"]);

async function waitForTrace(
  api: RecorderStack["api"],
  message: string,
  since: number,
  timeoutMs: number,
): Promise<Trace> {
  const deadline = Date.now() + timeoutMs;
  let last = "no trace listed yet";
  for (;;) {
    // Newest first; the recorder may list a trace before its /agent exchange is written, so keep polling.
    const list = TraceListSchema.parse(JSON.parse(await api("/api/traces?limit=50")));
    for (const summary of list.traces) {
      const trace = TraceSchema.parse(JSON.parse(await api(`/api/traces/${summary.id}`)));
      const agent = trace.exchanges.find((e) => e.tap === "agent");
      if (agent?.classification.kind !== "agent" || agent.classification.message !== message) continue;
      // Same clock (this process): the tap stamped the exchange after ask() noted the time.
      if (agent.timings.start < since - 1) continue;
      // The recorder flushes to SQLite on an interval, so the trace can be listed before its last exchange ended.
      if (trace.exchanges.every((e) => DONE.has(e.state))) return trace;
      last = `trace ${trace.id}: ${trace.exchanges.map((e) => `${e.tap}#${e.seq} ${e.state}`).join(", ")}`;
      break;
    }
    if (Date.now() > deadline)
      throw new Error(`the recorder did not store the whole trace of "${message}" within ${timeoutMs} ms (${last})`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
