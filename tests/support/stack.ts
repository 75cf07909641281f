/**
 * Start the whole agent stack in-process for a test, every server on port 0: the notes MCP server on a
 * temp notes file, the stand-in model (or an external model server such as a real Ollama), and the
 * agent host wired to them. By default a recording pass-through sits on each of the host's two
 * upstream links, so a test can read exactly what the model server and the MCP server received.
 *
 * @example
 *   const stack = await startStack({ lesson: "missing-argument" });
 *   const { status, body } = await stack.ask("Add buy milk to my notes");
 *   await stack.close();
 */
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig as loadHostConfig, type Config as HostConfig } from "../../apps/host/src/config";
import { start as startHost } from "../../apps/host/src/server";
import { loadConfig as loadMcpConfig } from "../../apps/mcp-server/src/config";
import { start as startMcp } from "../../apps/mcp-server/src/server";
import { defaultConfig as defaultSimConfig, type Config as SimConfig } from "../../apps/model-sim/src/sim/config";
import { start as startModelSim } from "../../apps/model-sim/src/server";
import type { Lesson } from "@hopscope/shared/ollama/lessons";
import { startRecordingProxy, type RecordingProxy, type RecordingProxyOptions } from "./recording-proxy";

export interface StackOptions {
  /** Notes file for the MCP server; default a fresh temp file (removed by close()). */
  notesFile?: string;
  /** Text the notes file starts with (default empty). */
  notes?: string;
  /** Stand-in model pace; default 0 (no delay). */
  simTokensPerSecond?: number;
  /** AGENT_LESSON for the host (forwarded to the stand-in as x-hopscope-lesson). */
  lesson?: Lesson | null;
  /** Other stand-in settings (e.g. the `slow` lesson's pace). */
  sim?: Partial<SimConfig>;
  /** Use this model server instead of starting the stand-in, e.g. a real Ollama. */
  model?: { url: string; name?: string };
  /** Any other host settings (maxSteps, stream, …). */
  host?: Partial<HostConfig>;
  /** Put recording pass-throughs between the host and its upstreams (default true). */
  record?: boolean;
  /** Stage a different MCP server: rewrite its answers on the way to the host (needs `record`). */
  rewriteMcpResponse?: RecordingProxyOptions["rewriteResponse"];
}

export interface AskResult {
  status: number;
  body: unknown;
}

export interface Stack {
  /** The host's origin; POST `${hostUrl}/agent`. */
  hostUrl: string;
  /** The model server's origin as the host reaches it (through the recorder when recording). */
  modelUrl: string;
  /** The MCP endpoint as the host reaches it. */
  mcpUrl: string;
  /** The stand-in's own origin (null when an external model server is used). */
  simUrl: string | null;
  /** The MCP server's own endpoint, bypassing the recorder. */
  mcpServerUrl: string;
  notesFile: string;
  readNotes(): Promise<string>;
  /** What the model server received (null when not recording). */
  modelRecorder: RecordingProxy | null;
  /** What the MCP server received (null when not recording). */
  mcpRecorder: RecordingProxy | null;
  /** POST /agent with `{ message, conversationId? }`; extra headers (e.g. traceparent) optional. */
  ask(message: string, conversationId?: string, headers?: Record<string, string>): Promise<AskResult>;
  close(): Promise<void>;
}

export async function startStack(opts: StackOptions = {}): Promise<Stack> {
  const closers: (() => Promise<void>)[] = [];
  const close = async () => {
    // Reverse order: the host goes first so nothing calls an upstream that is already gone. Taking the
    // closers out makes a second close() a no-op.
    for (const c of closers.splice(0).reverse()) await c();
  };
  try {
    let notesFile = opts.notesFile;
    if (notesFile === undefined) {
      const dir = await mkdtemp(join(tmpdir(), "hopscope-stack-"));
      closers.push(() => rm(dir, { recursive: true, force: true }));
      notesFile = join(dir, "db");
    }
    await writeFile(notesFile, opts.notes ?? "");

    const mcp = await startMcp({ ...loadMcpConfig({}), port: 0, host: "127.0.0.1", notesFile });
    closers.push(() => mcp.close());
    const mcpServerUrl = `${mcp.url}/mcp`;

    let simUrl: string | null = null;
    let modelOrigin: string;
    if (opts.model) {
      modelOrigin = opts.model.url.replace(/\/+$/, "");
    } else {
      const sim = await startSim({ tokensPerSecond: opts.simTokensPerSecond ?? 0, ...opts.sim });
      closers.push(() => sim.close());
      simUrl = sim.url;
      modelOrigin = sim.url;
    }

    const record = opts.record ?? true;
    if (!record && opts.rewriteMcpResponse) throw new Error("startStack: rewriteMcpResponse needs record: true");
    let modelRecorder: RecordingProxy | null = null;
    let mcpRecorder: RecordingProxy | null = null;
    if (record) {
      modelRecorder = await startRecordingProxy(modelOrigin);
      closers.push(() => modelRecorder!.close());
      mcpRecorder = await startRecordingProxy(mcp.url, { rewriteResponse: opts.rewriteMcpResponse });
      closers.push(() => mcpRecorder!.close());
    }
    const modelUrl = modelRecorder?.url ?? modelOrigin;
    const mcpUrl = mcpRecorder ? `${mcpRecorder.url}/mcp` : mcpServerUrl;

    const host = await startHost({
      ...loadHostConfig({}),
      port: 0,
      host: "127.0.0.1",
      ollamaUrl: modelUrl,
      mcpUrl,
      lesson: opts.lesson ?? null,
      ...(opts.model?.name !== undefined && { model: opts.model.name }),
      ...opts.host,
    });
    closers.push(() => host.close());

    const file = notesFile;
    return {
      hostUrl: host.url,
      modelUrl,
      mcpUrl,
      simUrl,
      mcpServerUrl,
      notesFile: file,
      readNotes: () => readFile(file, "utf8"),
      modelRecorder,
      mcpRecorder,
      ask: (message, conversationId, headers = {}) =>
        postJson(
          `${host.url}/agent`,
          conversationId === undefined ? { message } : { message, conversationId },
          headers,
        ),
      close,
    };
  } catch (err) {
    await close();
    throw err;
  }
}

/** POST a JSON body and read the JSON answer (any status). */
export async function postJson(url: string, body: unknown, headers: Record<string, string> = {}): Promise<AskResult> {
  const res = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
  const text = await res.text();
  try {
    return { status: res.status, body: JSON.parse(text) as unknown };
  } catch (err) {
    throw new Error(`${url} answered ${res.status} with a body that is not JSON: ${text.slice(0, 300)}`, {
      cause: err,
    });
  }
}

async function startSim(overrides: Partial<SimConfig>): Promise<{ url: string; close(): Promise<void> }> {
  // No cold-load pause in tests, and a `slow` lesson that is slow only in name: tests never wait.
  return startModelSim({
    ...defaultSimConfig(),
    port: 0,
    host: "127.0.0.1",
    loadMs: 0,
    slowLoadMs: 20,
    slowTokensPerSecond: 0,
    ...overrides,
  });
}
