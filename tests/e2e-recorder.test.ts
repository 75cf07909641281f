/**
 * The recorder in the real stack, everything on port 0:
 *   user → agent tap → host → model tap → model-sim;  host → MCP tap → mcp-server
 * with a recording pass-through behind the model and MCP taps, so the test knows exactly which bytes
 * each side sent and received, and can compare them with what the recorder stored.
 * Also: the official `ollama` client and the official MCP client work unchanged through the taps.
 */
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Ollama } from "ollama";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import WebSocket from "ws";
import { ExchangeViewsSchema, fullTokens } from "@hopscope/shared/trace/views";
import {
  ExchangeSchema,
  ServerFrameSchema,
  TraceSchema,
  type Exchange,
  type ServerFrame,
  type Trace,
} from "@hopscope/shared/trace/schemas";
import { loadConfig as loadProxyConfig } from "../apps/proxy/src/config";
import { start as startProxy, type RecorderHandle } from "../apps/proxy/src/server";
import { loadConfig as loadMcpConfig } from "../apps/mcp-server/src/config";
import { start as startMcp } from "../apps/mcp-server/src/server";
import { defaultConfig as simDefaults } from "../apps/model-sim/src/sim/config";
import { start as startSim } from "../apps/model-sim/src/server";
import { loadConfig as loadHostConfig } from "../apps/host/src/config";
import { start as startHost } from "../apps/host/src/server";
import { startRecordingProxy, type RecordingProxy } from "./support/recording-proxy";

const closers: (() => Promise<unknown>)[] = [];
let dir: string;
let recorder: RecorderHandle;
let modelWire: RecordingProxy;
let mcpWire: RecordingProxy;
let notesFile: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "hopscope-e2e-recorder-"));
  closers.push(() => rm(dir, { recursive: true, force: true }));
  notesFile = path.join(dir, "notes");
  await writeFile(notesFile, "");
  const mcp = await startMcp({ ...loadMcpConfig({}), port: 0, host: "127.0.0.1", notesFile });
  closers.push(() => mcp.close());
  const sim = await startSim({ ...simDefaults(), port: 0, host: "127.0.0.1", tokensPerSecond: 0, loadMs: 0 });
  closers.push(() => sim.close());
  modelWire = await startRecordingProxy(sim.url);
  closers.push(() => modelWire.close());
  mcpWire = await startRecordingProxy(mcp.url);
  closers.push(() => mcpWire.close());

  // The host is started after the recorder (it needs the tap URLs); the agent tap points at its port.
  const hostPort = await freePort();
  recorder = await startProxy({
    ...loadProxyConfig({}),
    uiPort: 0,
    taps: {
      model: { port: 0, upstream: modelWire.url },
      mcp: { port: 0, upstream: mcpWire.url },
      agent: { port: 0, upstream: `http://127.0.0.1:${hostPort}` },
    },
    dbFile: path.join(dir, "hopscope.sqlite"),
    tracesDir: path.join(dir, "traces"),
    webDist: path.join(dir, "dist"),
  });
  closers.push(() => recorder.close());
  const host = await startHost({
    ...loadHostConfig({}),
    port: hostPort,
    host: "127.0.0.1",
    ollamaUrl: recorder.taps.model.url,
    mcpUrl: `${recorder.taps.mcp.url}/mcp`,
    lesson: null,
  });
  closers.push(() => host.close());
});

afterAll(async () => {
  for (const c of closers.reverse()) await c();
});

async function freePort(): Promise<number> {
  const { createServer } = await import("node:net");
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, "127.0.0.1", r));
  const port = (s.address() as { port: number }).port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

async function json<T>(url: string): Promise<T> {
  const res = await fetch(url);
  if (!res.ok) throw new Error(`${url}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

/** The trace once `done` holds for it, asked until then (the test's timeout bounds it: a busy machine is slow). */
async function waitForTrace(id: string, done: (t: Trace) => boolean): Promise<Trace> {
  for (;;) {
    const res = await fetch(`${recorder.url}/api/traces/${id}`);
    if (res.ok) {
      const t = TraceSchema.parse(await res.json());
      if (done(t)) return t;
    }
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Resolves once the frames received so far satisfy `ok`, checked as each frame arrives. */
function untilFrames(ws: WebSocket, frames: ServerFrame[], ok: (fs: ServerFrame[]) => boolean): Promise<void> {
  return new Promise((resolve) => {
    const check = () => ok(frames) && (ws.off("message", check), resolve());
    ws.on("message", check);
    check();
  });
}

function label(e: Trace["exchanges"][number]): string {
  const c = e.classification;
  if (c.kind === "mcp") return c.toolName ? `${c.method} ${c.toolName}` : (c.method ?? "mcp");
  return `${e.method} ${e.url}`;
}

describe("a question through the agent tap", () => {
  it("is one trace: /agent, tools/list, /api/chat, tools/call append, /api/chat, linked, byte for byte, and live", async () => {
    const frames: ServerFrame[] = [];
    const ws = new WebSocket(recorder.wsUrl);
    ws.on("message", (d) => frames.push(ServerFrameSchema.parse(JSON.parse(d.toString()))));
    await new Promise((r) => ws.once("open", r));

    const question = '{"message":"Add buy milk to my notes"}';
    const res = await fetch(`${recorder.taps.agent.url}/agent`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: question,
    });
    const answerText = await res.text();
    expect(res.status).toBe(200);
    expect(await readFile(notesFile, "utf8")).toContain("buy milk");

    // The feed and the answer are two paths: the frame may come after the answer.
    const agentStarted = (f: ServerFrame): f is Extract<ServerFrame, { type: "exchange.started" }> =>
      f.type === "exchange.started" && f.exchange.tap === "agent";
    await untilFrames(ws, frames, (fs) => fs.some(agentStarted));
    const started = frames.find(agentStarted);
    const traceId = started?.exchange.traceId ?? "";
    expect(traceId).toMatch(/^[0-9a-f]{32}$/);
    const trace = await waitForTrace(
      traceId,
      (t) => t.exchanges.length >= 5 && t.exchanges.every((e) => e.state === "complete"),
    );
    expect(trace.exchanges.map(label)).toEqual([
      "POST /agent",
      "tools/list",
      "POST /api/chat",
      "tools/call append",
      "POST /api/chat",
    ]);
    expect(trace.groupedBy).toBe("traceparent");
    expect(trace.name).toBe("Add buy milk to my notes");
    expect(trace.simulated).toBe(true);
    const [agent, , chat1, call, chat2] = trace.exchanges;
    expect(trace.links).toEqual([
      { kind: "tool-call", from: chat1!.id, to: call!.id, toolName: "append", toolCallIndex: 0 },
      expect.objectContaining({ kind: "tool-result", from: call!.id, to: chat2!.id, toolName: "append" }),
    ]);

    // Byte for byte: what the host sent and received on each hop is what the recorder stored.
    const full = await Promise.all(
      trace.exchanges.map(async (e) =>
        ExchangeSchema.parse(await json<Exchange>(`${recorder.url}/api/exchanges/${e.id}`)),
      ),
    );
    const agentEx = full[0]!;
    expect(agentEx.requestBody?.data).toBe(question);
    expect(agentEx.responseBody?.data).toBe(answerText);
    const modelExchanges = full.filter((e) => e.tap === "model");
    const mcpExchanges = full.filter((e) => e.tap === "mcp");
    expect(modelExchanges.map((e) => e.requestBody?.data)).toEqual(modelWire.exchanges.map((w) => w.requestBody));
    expect(modelExchanges.map((e) => e.responseBody?.data)).toEqual(modelWire.exchanges.map((w) => w.responseBody));
    expect(mcpExchanges.map((e) => e.requestBody?.data)).toEqual(mcpWire.exchanges.map((w) => w.requestBody));
    expect(mcpExchanges.map((e) => e.responseBody?.data)).toEqual(mcpWire.exchanges.map((w) => w.responseBody));
    for (const e of full) {
      expect(e.timings.requestEnd).not.toBeNull();
      expect(e.timings.firstByte).not.toBeNull();
      expect(e.chunks.reduce((n, c) => n + c.size, 0)).toBe(e.responseSize);
    }
    // Every hop inside the agent exchange's time span.
    for (const e of full.slice(1)) expect(e.timings.start).toBeGreaterThanOrEqual(agent!.timings.start);

    // Derived views of the model exchanges: the prompt as the model saw it, tokens, the raw output.
    const views1 = ExchangeViewsSchema.parse(await json(`${recorder.url}/api/exchanges/${chat1!.id}/views`));
    const views2 = ExchangeViewsSchema.parse(await json(`${recorder.url}/api/exchanges/${chat2!.id}/views`));
    expect(views1.prompt?.text).toContain("<|im_start|>user\nAdd buy milk to my notes<|im_end|>");
    expect(views1.prompt?.segments.length).toBeGreaterThan(3);
    expect(views1.prompt?.verified).toBeNull();
    // The stand-in counts prompt tokens like Ollama does; our count of the rendered prompt must agree.
    expect(chat1!.classification).toMatchObject({ kind: "model.chat", promptEvalCount: views1.prompt?.tokens?.count });
    expect(fullTokens(views1.prompt?.tokens)?.ids.length).toBe(views1.prompt?.tokens?.count);
    expect(views1.rawOutput).toMatchObject({ reconstructed: true });
    expect(views1.rawOutput?.text).toContain('<tool_call>\n{"name": "append"');
    expect(views2.diff).toMatchObject({ previousExchangeId: chat1!.id });
    expect(views2.diff!.commonPrefixLength).toBeGreaterThan(views1.prompt!.text.indexOf("Add buy milk"));
    expect(await json<object>(`${recorder.url}/api/exchanges/${agent!.id}/views`)).toEqual({});

    // Live: every exchange of the trace was announced as started and completed on the feed (the feed's
    // frames and the stored trace travel apart: wait for the last completion, then check each).
    const completed = (id: number) => (f: ServerFrame) => f.type === "exchange.completed" && f.exchange.id === id;
    await untilFrames(ws, frames, (fs) => trace.exchanges.every((e) => fs.some(completed(e.id))));
    for (const e of trace.exchanges) {
      expect(frames.some((f) => f.type === "exchange.started" && f.exchange.id === e.id)).toBe(true);
      expect(frames.some((f) => f.type === "exchange.completed" && f.exchange.id === e.id)).toBe(true);
    }
    ws.terminate();
  });
});

describe("official clients through the taps", () => {
  it("the ollama npm client chats (streaming and not) through the model tap", async () => {
    const ollama = new Ollama({ host: recorder.taps.model.url });
    const version = await ollama.version();
    expect(version.version).toMatch(/^\d+\.\d+\.\d+/);
    const once = await ollama.chat({
      model: "qwen2.5:7b",
      messages: [{ role: "user", content: "Say hello" }],
      stream: false,
    });
    expect(once.message.role).toBe("assistant");
    const parts: string[] = [];
    for await (const part of await ollama.chat({
      model: "qwen2.5:7b",
      messages: [{ role: "user", content: "Say hello again" }],
      stream: true,
    })) {
      parts.push(part.message.content);
      if (part.done) expect(part.done_reason).toBeDefined();
    }
    expect(parts.length).toBeGreaterThan(1);
  });

  it("the MCP client pinned to 2026-07-28 discovers, lists and calls through the MCP tap", async () => {
    const client = new Client(
      { name: "hopscope-e2e", version: "1.0.0" },
      { versionNegotiation: { mode: { pin: "2026-07-28" } } },
    );
    await client.connect(new StreamableHTTPClientTransport(new URL(`${recorder.taps.mcp.url}/mcp`)));
    try {
      expect(client.getProtocolEra()).toBe("modern");
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toContain("append");
      const result = await client.callTool({ name: "read", arguments: {} });
      expect(result.isError).not.toBe(true);
    } finally {
      await client.close();
    }
  });
});
