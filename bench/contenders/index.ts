/**
 * The proxies under test, each started as its own process in front of the same upstream:
 * direct (no proxy), a plain Node pass-through (the baseline), hopscope's taps with full recording to
 * SQLite, nginx and mitmdump (reverse mode) when installed.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { createWriteStream, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import Database from "better-sqlite3";
import { tmpdir } from "node:os";
import { join } from "node:path";

export interface Started {
  /** Port for MCP-like traffic (/mcp) and model-like traffic (/api/*). */
  mcpPort: number;
  modelPort: number;
  pid: number | null;
  dbFile?: string;
  /** Stops it; a recording proxy says how many exchanges it stored (read back after it flushed on exit). */
  stop(): Promise<{ recorded?: number } | void>;
  /** Why it died, when it did (a recorder that crashed mid-run). */
  failure?(): string | null;
}

export interface Contender {
  name: string;
  /** null when it can run; otherwise why not (printed in the results). */
  unavailable(): string | null;
  start(upstreamPort: number): Promise<Started>;
}

const root = join(import.meta.dirname, "..", "..");

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const a = s.address();
      s.close(() => resolve(typeof a === "object" && a ? a.port : 0));
    });
  });
}

async function waitFor(url: string, child: ChildProcess, what: string, okStatus?: number): Promise<void> {
  const deadline = Date.now() + 30_000;
  let lastError = "";
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${what} exited with ${child.exitCode}`);
    try {
      const r = await fetch(url, { method: "GET", signal: AbortSignal.timeout(1000) });
      await r.arrayBuffer();
      if (okStatus === undefined || r.status === okStatus) return;
      lastError = `status ${r.status}`;
    } catch (err) {
      lastError = err instanceof Error ? err.message : String(err);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${what} did not become ready at ${url}: ${lastError}`);
}

/** SIGTERM, then SIGKILL after `graceMs` (the recorder writes what it has queued before it exits). */
function stopper(child: ChildProcess, cleanup?: () => void, graceMs = 3000): () => Promise<void> {
  return () =>
    new Promise((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) {
        cleanup?.();
        resolve();
        return;
      }
      const t = setTimeout(() => child.kill("SIGKILL"), graceMs);
      child.once("exit", () => {
        clearTimeout(t);
        cleanup?.();
        resolve();
      });
      child.kill("SIGTERM");
    });
}

const has = (cmd: string) => spawnSync("sh", ["-c", `command -v ${cmd}`]).status === 0;

export const direct: Contender = {
  name: "direct",
  unavailable: () => null,
  async start(upstreamPort) {
    return { mcpPort: upstreamPort, modelPort: upstreamPort, pid: null, stop: async () => {} };
  },
};

export const nodePassthrough: Contender = {
  name: "node pass-through",
  unavailable: () => null,
  async start(upstreamPort) {
    const port = await freePort();
    const child = spawn(
      process.execPath,
      ["--import", "tsx", join(import.meta.dirname, "passthrough.ts"), String(port), String(upstreamPort)],
      {
        cwd: root,
        stdio: ["ignore", "ignore", "inherit"],
      },
    );
    await waitFor(`http://127.0.0.1:${port}/health`, child, "node pass-through");
    return { mcpPort: port, modelPort: port, pid: child.pid ?? null, stop: stopper(child) };
  },
};

/** The pass-through that also stores every exchange's bytes in SQLite (passthrough.ts with a database): the floor. */
export const nodeStoring: Contender = {
  name: "node pass-through + SQLite",
  unavailable: () => null,
  async start(upstreamPort) {
    const port = await freePort();
    const dir = mkdtempSync(join(tmpdir(), "hopscope-bench-floor-"));
    const dbFile = join(dir, "floor.sqlite");
    const script = join(import.meta.dirname, "passthrough.ts");
    const child = spawn(process.execPath, ["--import", "tsx", script, String(port), String(upstreamPort), dbFile], {
      cwd: root,
      stdio: ["ignore", "ignore", "inherit"],
    });
    await waitFor(`http://127.0.0.1:${port}/health`, child, "node pass-through + SQLite");
    const cleanup = () => rmSync(dir, { recursive: true, force: true });
    return { mcpPort: port, modelPort: port, pid: child.pid ?? null, dbFile, stop: stopper(child, cleanup) };
  },
};

export interface RecorderChild {
  uiPort: number;
  mcpPort: number;
  modelPort: number;
  agentPort: number;
  pid: number | null;
  dbFile: string;
  /** Stops the recorder (SIGTERM: it flushes and closes its database); the temp dir stays until cleanup(). */
  stop(): Promise<void>;
  cleanup(): void;
  /** null while the recorder runs (or was stopped by us); otherwise how it died and its last log lines. */
  failure(): string | null;
}

/**
 * apps/proxy's main.ts as its own process, all three taps in front of one upstream, its database in a temp
 * dir. `env` adds or overrides settings (e.g. WEB_DIST for the timeline bench); `nodeArgs` go to node itself
 * (e.g. --cpu-prof, which NODE_OPTIONS does not allow).
 */
export async function startRecorder(
  upstreamPort: number,
  env: Record<string, string> = {},
  nodeArgs: string[] = [],
): Promise<RecorderChild> {
  const dir = mkdtempSync(join(tmpdir(), "hopscope-bench-"));
  const [ui, model, mcp, agent] = [await freePort(), await freePort(), await freePort(), await freePort()];
  const dbFile = join(dir, "bench.sqlite");
  const child = spawn(
    process.execPath,
    [...nodeArgs, "--import", "tsx", join(root, "apps", "proxy", "src", "main.ts")],
    {
      cwd: root,
      env: {
        ...process.env,
        HOST: "127.0.0.1",
        UI_PORT: String(ui),
        MODEL_TAP_PORT: String(model),
        MCP_TAP_PORT: String(mcp),
        AGENT_TAP_PORT: String(agent),
        MODEL_UPSTREAM: `http://127.0.0.1:${upstreamPort}`,
        MCP_UPSTREAM: `http://127.0.0.1:${upstreamPort}`,
        AGENT_UPSTREAM: `http://127.0.0.1:${upstreamPort}`,
        DB_FILE: dbFile,
        TRACES_DIR: join(dir, "traces"),
        // Retention off, so every exchange sent can be counted in SQLite (nothing lost); in normal use
        // MAX_TRACES (default 10,000) bounds the database.
        MAX_TRACES: "0",
        ...env,
      },
      // The recorder logs a warning per upstream failure; the bench cuts connections at the end of each load
      // run, so those lines are expected noise and go to a file in the temp dir instead of the terminal.
      stdio: ["ignore", "ignore", "pipe"],
    },
  );
  const errLog = createWriteStream(join(dir, "recorder.log"));
  child.stderr?.pipe(errLog);
  try {
    await waitFor(`http://127.0.0.1:${ui}/api/health`, child, "hopscope recorder", 200);
  } catch (err) {
    child.kill("SIGKILL");
    throw new Error(`${(err as Error).message}; its log: ${join(dir, "recorder.log")}`);
  }
  const cleanup = () => rmSync(dir, { recursive: true, force: true });
  let stopping = false;
  // A recorder behind a saturating load may still be writing what it recorded: give it time to finish.
  const stop = stopper(child, undefined, 30_000);
  const failure = () => {
    if (stopping || (child.exitCode === null && child.signalCode === null)) return null;
    let tail = "";
    try {
      tail = readFileSync(join(dir, "recorder.log"), "utf8")
        .split("\n")
        .filter((l) => /Error|error|throw/.test(l))
        .slice(0, 2)
        .join(" / ");
    } catch (err) {
      tail = `(its log could not be read: ${(err as Error).message})`;
    }
    return `the recorder exited (${child.exitCode ?? child.signalCode}): ${tail}`;
  };
  return {
    uiPort: ui,
    mcpPort: mcp,
    modelPort: model,
    agentPort: agent,
    pid: child.pid ?? null,
    dbFile,
    stop: () => {
      stopping = true;
      return stop();
    },
    cleanup,
    failure,
  };
}

export const hopscope: Contender = {
  name: "hopscope (recording)",
  unavailable: () => null,
  async start(upstreamPort) {
    const r = await startRecorder(upstreamPort);
    return {
      mcpPort: r.mcpPort,
      modelPort: r.modelPort,
      pid: r.pid,
      dbFile: r.dbFile,
      failure: r.failure,
      stop: async () => {
        await r.stop();
        try {
          const db = new Database(r.dbFile, { readonly: true, fileMustExist: true });
          try {
            return { recorded: (db.prepare("SELECT COUNT(*) AS n FROM exchanges").get() as { n: number }).n };
          } finally {
            db.close();
          }
        } finally {
          r.cleanup();
        }
      },
    };
  },
};

export const nginx: Contender = {
  name: "nginx",
  unavailable: () => (has("nginx") ? null : "nginx is not installed (Debian: apt-get install nginx-light)"),
  async start(upstreamPort) {
    const dir = mkdtempSync(join(tmpdir(), "hopscope-bench-nginx-"));
    const port = await freePort();
    const conf = `worker_processes 1;
daemon off;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log;
events { worker_connections 1024; }
http {
  access_log off;
  client_body_temp_path ${dir}/body; proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fcgi; uwsgi_temp_path ${dir}/uwsgi; scgi_temp_path ${dir}/scgi;
  upstream up { server 127.0.0.1:${upstreamPort}; keepalive 64; }
  server {
    listen 127.0.0.1:${port};
    location / {
      proxy_pass http://up;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_buffering off;
    }
  }
}
`;
    writeFileSync(join(dir, "nginx.conf"), conf);
    const child = spawn("nginx", ["-c", join(dir, "nginx.conf"), "-p", dir], {
      stdio: ["ignore", "ignore", "inherit"],
    });
    await waitFor(`http://127.0.0.1:${port}/health`, child, "nginx");
    return {
      mcpPort: port,
      modelPort: port,
      pid: child.pid ?? null,
      stop: stopper(child, () => rmSync(dir, { recursive: true, force: true })),
    };
  },
};

export const mitmdump: Contender = {
  name: "mitmdump",
  unavailable: () => (has("mitmdump") ? null : "mitmdump is not installed (Debian: apt-get install mitmproxy)"),
  async start(upstreamPort) {
    const port = await freePort();
    const dir = mkdtempSync(join(tmpdir(), "hopscope-bench-mitm-"));
    const child = spawn(
      "mitmdump",
      [
        "--mode",
        `reverse:http://127.0.0.1:${upstreamPort}`,
        "--listen-host",
        "127.0.0.1",
        "--listen-port",
        String(port),
        "-q",
        "--set",
        `confdir=${dir}`,
      ],
      { stdio: ["ignore", "ignore", "inherit"] },
    );
    await waitFor(`http://127.0.0.1:${port}/health`, child, "mitmdump");
    return {
      mcpPort: port,
      modelPort: port,
      pid: child.pid ?? null,
      stop: stopper(child, () => rmSync(dir, { recursive: true, force: true })),
    };
  },
};

export const ALL: Contender[] = [direct, nodePassthrough, hopscope, nginx, mitmdump];
