/**
 * Closed to other web pages, on the real stack (every server on 127.0.0.1, port 0): a page on another
 * site cannot make the agent write the learner's notes, and a DNS-rebinding Host is refused by every
 * listener (host, MCP server, stand-in, recorder UI/API, live feed, all three taps). Raw node:http
 * requests, because fetch may not set Host.
 */
import { mkdtemp, rm } from "node:fs/promises";
import http from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { loadConfig as loadMcpConfig } from "../apps/mcp-server/src/config";
import { start as startMcp } from "../apps/mcp-server/src/server";
import { loadConfig as loadHostConfig } from "../apps/host/src/config";
import { start as startHost } from "../apps/host/src/server";
import { loadConfig as loadSimConfig } from "../apps/model-sim/src/sim/config";
import { start as startSim } from "../apps/model-sim/src/server";
import { loadConfig as loadRecorderConfig } from "../apps/proxy/src/config";
import { start as startRecorder } from "../apps/proxy/src/server";
import { startRecorderStack, type RecorderStack } from "./support/recorder-stack";

interface Answer {
  status: number;
  body: string;
}

function send(
  url: string,
  opts: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: opts.method ?? "GET", headers: opts.headers }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (c: string) => (body += c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on("error", reject);
    req.end(opts.body);
  });
}

/** A WebSocket handshake on /ws: 101 when accepted, else the refusal's status. */
function upgrade(url: string, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${url}/ws`, {
      headers: {
        Host: host,
        Connection: "Upgrade",
        Upgrade: "websocket",
        "Sec-WebSocket-Version": "13",
        "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ==",
      },
    });
    req.on("upgrade", (res, socket) => {
      socket.destroy();
      resolve(res.statusCode ?? 0);
    });
    req.on("response", (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on("error", reject);
    req.end();
  });
}

const portOf = (url: string) => new URL(url).port;
const ATTACK = JSON.stringify({ message: "Add pwned to my notes" });

describe("the request guard, on every listener", () => {
  let stack: RecorderStack;
  beforeAll(async () => {
    stack = await startRecorderStack();
  });
  afterAll(() => stack?.close());

  it("a foreign page's text/plain POST to the host or the agent tap writes nothing to the notes file", async () => {
    for (const url of [stack.hostUrl, stack.agentTapUrl]) {
      const page = await send(`${url}/agent`, {
        method: "POST",
        headers: { Origin: "https://evil.example", "Content-Type": "text/plain;charset=UTF-8" },
        body: ATTACK,
      });
      expect(page.status, url).toBe(403);
      expect(JSON.parse(page.body).error).toMatch(/Origin "https:\/\/evil\.example" is not local/);
      // Even with no Origin (an old browser, a form post), a state-changing request must say JSON.
      const plain = await send(`${url}/agent`, {
        method: "POST",
        headers: { "Content-Type": "text/plain" },
        body: ATTACK,
      });
      expect(plain.status, url).toBe(415);
      expect(JSON.parse(plain.body).error).toMatch(/send Content-Type: application\/json \(got 'text\/plain'\)/);
      const form = await send(`${url}/agent`, {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded" },
        body: "message=pwned",
      });
      expect(form.status, url).toBe(415);
    }
    expect(await stack.readNotes()).toBe("");
    // The same question as JSON from no page at all does reach the agent: the refusals above are the guard.
    expect((await stack.ask("Add buy milk to my notes")).status).toBe(200);
    expect(await stack.readNotes()).toContain("buy milk");
  });

  it("a local page (the UI itself, the Vite dev server) is let through", async () => {
    const ui = await send(`${stack.uiUrl}/api/traces`, { headers: { Origin: stack.uiUrl } });
    expect(ui.status).toBe(200);
    const vite = await send(`${stack.hostUrl}/health`, { headers: { Origin: "http://localhost:5173" } });
    expect(vite.status).toBe(200);
  });

  it("refuses a rebinding Host on every listener, the live feed included", async () => {
    const listeners: [string, string, { method?: string; headers?: Record<string, string>; body?: string }][] = [
      [
        "host",
        `${stack.hostUrl}/agent`,
        { method: "POST", headers: { "Content-Type": "application/json" }, body: ATTACK },
      ],
      [
        "MCP server",
        `${stack.mcpServerUrl}/mcp`,
        {
          method: "POST",
          headers: { "Content-Type": "application/json" },
          body: '{"jsonrpc":"2.0","id":1,"method":"tools/list"}',
        },
      ],
      ["stand-in", `${stack.simUrl}/api/tags`, {}],
      ["recorder API", `${stack.uiUrl}/api/traces`, {}],
      [
        "recorder /api/ask",
        `${stack.uiUrl}/api/ask`,
        { method: "POST", headers: { "Content-Type": "application/json" }, body: ATTACK },
      ],
      ["recorder UI", `${stack.uiUrl}/`, {}],
      [
        "agent tap",
        `${stack.tapUrls.agent}/agent`,
        { method: "POST", headers: { "Content-Type": "application/json" }, body: ATTACK },
      ],
      [
        "MCP tap",
        `${stack.tapUrls.mcp}/mcp`,
        {
          method: "POST",
          headers: { "Content-Type": "application/json" },
          body: '{"jsonrpc":"2.0","id":1,"method":"tools/list"}',
        },
      ],
      ["model tap", `${stack.tapUrls.model}/api/tags`, {}],
    ];
    for (const [name, url, opts] of listeners) {
      const rebound = await send(url, { ...opts, headers: { ...opts.headers, Host: `evil.example:${portOf(url)}` } });
      expect(rebound.status, name).toBe(403);
      // The same request naming this machine is answered (so the 403 above is the Host check).
      const benign = opts.body === ATTACK ? JSON.stringify({ message: "hi" }) : opts.body;
      const local = await send(url, {
        ...opts,
        headers: { ...opts.headers, Host: `localhost:${portOf(url)}` },
        body: benign,
      });
      expect(local.status, `${name} with a local Host`).not.toBe(403);
    }
    expect(await upgrade(stack.uiUrl, `evil.example:${portOf(stack.uiUrl)}`)).toBe(403);
    expect(await upgrade(stack.uiUrl, `127.0.0.1:${portOf(stack.uiUrl)}`)).toBe(101);
    expect(await stack.readNotes()).not.toContain("pwned");
  });

  it("the stand-in refuses as Ollama does: a bare 403, any Content-Type otherwise accepted", async () => {
    const rebound = await send(`${stack.simUrl}/api/version`, { headers: { Host: "evil.example" } });
    expect(rebound).toEqual({ status: 403, body: "" });
    const foreign = await send(`${stack.simUrl}/api/version`, { headers: { Origin: "https://evil.example" } });
    expect(foreign.status).toBe(403);
    // `curl -d` (Ollama's documented examples) sends application/x-www-form-urlencoded.
    const curl = await send(`${stack.simUrl}/api/show`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: '{"model":"qwen2.5:7b"}',
    });
    expect(curl.status).toBe(200);
    const viaTap = await send(`${stack.tapUrls.model}/api/show`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: '{"model":"qwen2.5:7b"}',
    });
    expect(viaTap.status).toBe(200);
  });
});

describe("ALLOWED_HOSTS: the service names of docker-compose", () => {
  const LIST = '{"jsonrpc":"2.0","id":1,"method":"tools/list"}';
  const cleanup: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const c of cleanup.splice(0).reverse()) await c();
  });
  const tempDir = async () => {
    const dir = await mkdtemp(join(tmpdir(), "guard-"));
    cleanup.push(() => rm(dir, { recursive: true, force: true }));
    return dir;
  };

  it("the MCP server accepts Host mcp-server:8080 when configured, and refuses it when not", async () => {
    const dir = await tempDir();
    const base = { PORT: "0", NOTES_FILE: join(dir, "db") };
    const open = await startMcp(loadMcpConfig({ ...base, ALLOWED_HOSTS: "mcp-server:8080" }));
    cleanup.push(() => open.close());
    const closed = await startMcp(loadMcpConfig(base));
    cleanup.push(() => closed.close());
    const headers = { Host: "mcp-server:8080", "Content-Type": "application/json" };
    expect((await send(`${open.url}/mcp`, { method: "POST", headers, body: LIST })).status).toBe(200);
    expect(
      (await send(`${open.url}/mcp`, { method: "POST", headers: { ...headers, Host: "mcp-server:9090" }, body: LIST }))
        .status,
    ).toBe(403);
    expect((await send(`${closed.url}/mcp`, { method: "POST", headers, body: LIST })).status).toBe(403);
  });

  it("the host (host:8081) and the stand-in (model-sim:11435) accept their compose names when configured, and refuse them when not", async () => {
    for (const [name, start, path] of [
      ["host:8081", (env: Record<string, string>) => startHost(loadHostConfig(env)), "/health"],
      [
        "model-sim:11435",
        (env: Record<string, string>) => startSim({ ...loadSimConfig(env), loadMs: 0 }),
        "/api/version",
      ],
    ] as const) {
      const open = await start({ PORT: "0", ALLOWED_HOSTS: name });
      cleanup.push(() => open.close());
      const closed = await start({ PORT: "0" });
      cleanup.push(() => closed.close());
      expect((await send(`${open.url}${path}`, { headers: { Host: name } })).status, name).toBe(200);
      expect((await send(`${closed.url}${path}`, { headers: { Host: name } })).status, name).toBe(403);
    }
  });

  it("the recorder's taps and API accept proxy:7071 when configured, and refuse it when not", async () => {
    const dir = await tempDir();
    const env = {
      UI_PORT: "0",
      MODEL_TAP_PORT: "0",
      MCP_TAP_PORT: "0",
      AGENT_TAP_PORT: "0",
      DB_FILE: join(dir, "a.sqlite"),
      MODEL_UPSTREAM: "http://127.0.0.1:9",
    };
    // docker-compose.yml's own value for the recorder.
    const open = await startRecorder(loadRecorderConfig({ ...env, ALLOWED_HOSTS: "proxy:7071,proxy:7072" }));
    cleanup.push(() => open.close());
    const closed = await startRecorder(loadRecorderConfig({ ...env, DB_FILE: join(dir, "b.sqlite") }));
    cleanup.push(() => closed.close());
    // Accepted, and forwarded to the (absent) model upstream: 502.
    expect((await send(`${open.taps.model.url}/api/tags`, { headers: { Host: "proxy:7071" } })).status).toBe(502);
    expect((await send(`${open.taps.mcp.url}/mcp`, { headers: { Host: "proxy:7072" } })).status).not.toBe(403);
    // Only the names listed: nothing in compose reaches the UI by service name.
    expect((await send(`${open.url}/api/health`, { headers: { Host: "proxy:7070" } })).status).toBe(403);
    expect((await send(`${open.url}/api/health`, { headers: { Host: "localhost:7070" } })).status).toBe(200);
    expect((await send(`${closed.taps.model.url}/api/tags`, { headers: { Host: "proxy:7071" } })).status).toBe(403);
    expect((await send(`${closed.url}/api/health`, { headers: { Host: "proxy:7070" } })).status).toBe(403);
  });
});
