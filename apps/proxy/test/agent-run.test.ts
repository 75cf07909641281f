/**
 * A coding agent's run through the real recorder (taps on port 0, real upstream servers): its probe, its MCP
 * session and its model requests land in one trace named by the question; what is healthy is recorded as
 * healthy (a stream closed by the client right after its final event, a refusal, a -32601 to an optional probe).
 */
import http from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import type { Trace } from "@hopscope/shared/trace/schemas";
import {
  closeAll,
  eventually,
  request,
  startRecorder,
  startUpstream,
  traces,
  type TestRecorder,
  type Upstream,
} from "./helpers";

let rec: TestRecorder | null = null;
const ups: Upstream[] = [];
afterEach(() => closeAll(rec, ...ups.splice(0)));

const QUESTION = "Add buy milk to my notes";
const CODEX_UA = "codex_cli_rs/0.169.0 (Debian 12; x86_64) xterm";
const codexHeaders = { "user-agent": CODEX_UA, "session-id": "019a-codex-1", "content-type": "application/json" };
const responsesBody = JSON.stringify({
  model: "qwen2.5:7b",
  tools: [{ type: "namespace", name: "mcp__notes", tools: [{ type: "function", name: "append" }] }],
  input: [
    {
      type: "message",
      role: "user",
      content: [{ type: "input_text", text: "<environment_context>\n  <cwd>/tmp</cwd>\n</environment_context>" }],
    },
    { type: "message", role: "user", content: [{ type: "input_text", text: QUESTION }] },
  ],
  stream: true,
});
const frame = (message: unknown) => {
  const data = typeof message === "string" ? message : JSON.stringify(message);
  return { encoding: "utf8" as const, data, size: Buffer.byteLength(data) };
};
const COMPLETED =
  'event: response.completed\ndata: {"type":"response.completed","response":{"status":"completed"}}\n\n';

/** The notes MCP server as far as an agent's start needs it: tools/list, and -32601 for prompts/list. */
async function mcpUpstream(): Promise<Upstream> {
  return startUpstream((_req, res, body) => {
    const msg = JSON.parse(body.toString()) as { id?: number; method: string };
    if (msg.id === undefined) return void res.writeHead(202).end();
    const answer =
      msg.method === "initialize"
        ? { result: { protocolVersion: "2025-06-18", capabilities: { tools: {} }, serverInfo: { name: "notes" } } }
        : msg.method === "tools/list"
          ? { result: { tools: [{ name: "append", inputSchema: { type: "object" } }] } }
          : { error: { code: -32601, message: `Method not found: ${msg.method}` } };
    res
      .writeHead(200, { "content-type": "application/json" })
      .end(JSON.stringify({ jsonrpc: "2.0", id: msg.id, ...answer }));
  });
}

/** A Responses stream that is never ended by the server: the client leaves after `response.completed`. */
async function modelUpstream(): Promise<Upstream> {
  return startUpstream((req, res) => {
    if (req.method === "GET")
      return void res.writeHead(200, { "content-type": "application/json" }).end('{"models":[]}');
    if (req.url === "/v1/chat/completions") {
      return void res.writeHead(400, { "content-type": "application/json" }).end(
        JSON.stringify({
          error: { message: '"qwen2.5:7b" does not support thinking', type: "invalid_request_error" },
        }),
      );
    }
    res.writeHead(200, { "content-type": "text/event-stream" });
    res.write('event: response.output_text.delta\ndata: {"type":"response.output_text.delta","delta":"Done."}\n\n');
    res.write(COMPLETED);
  });
}

/** POSTs and hangs up the moment the final event has arrived, as Codex does. */
function postAndLeave(url: string, headers: Record<string, string>, body: string): Promise<string> {
  return new Promise((resolve, reject) => {
    let got = "";
    const req = http.request(url, { method: "POST", headers }, (res) => {
      res.on("data", (c: Buffer) => {
        got += c.toString();
        if (got.includes("response.completed")) {
          req.destroy();
          resolve(got);
        }
      });
    });
    req.on("error", (err) => (req.destroyed ? undefined : reject(err)));
    req.end(body);
  });
}

const mcpPost = (message: unknown) =>
  request(`${rec!.taps.mcp.url}/mcp`, {
    method: "POST",
    body: JSON.stringify(message),
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "user-agent": "rmcp",
    },
  });

async function oneTrace(count: number): Promise<Trace> {
  const [trace] = await eventually(async () => {
    const t = await traces(rec!);
    return t.length === 1 && t[0]!.exchanges.length === count && t[0]!.exchanges.every((x) => x.state !== "pending")
      ? t
      : null;
  }, `one trace of ${count} exchanges`);
  return trace!;
}

describe("a Codex-shaped run", () => {
  it("is one trace named by the question: probe, MCP session, the turn; nothing red", async () => {
    const model = await modelUpstream();
    const mcp = await mcpUpstream();
    ups.push(model, mcp);
    rec = await startRecorder({ model: model.url, mcp: mcp.url });
    await request(`${rec.taps.model.url}/api/tags`, { headers: { "user-agent": CODEX_UA } });
    await mcpPost({ jsonrpc: "2.0", id: 0, method: "initialize", params: { clientInfo: { name: "codex" } } });
    await mcpPost({ jsonrpc: "2.0", method: "notifications/initialized" });
    await mcpPost({ jsonrpc: "2.0", id: 1, method: "tools/list" });
    const probe = await mcpPost({ jsonrpc: "2.0", id: 2, method: "prompts/list" });
    expect(JSON.parse(probe.body.toString()).error.code).toBe(-32601);
    // Its stdio server (`hopscope wrap`), started beside the HTTP one.
    const t0 = Date.now();
    const list = { jsonrpc: "2.0", id: 1, method: "tools/list" };
    const stdio = await request(`${rec.url}/api/ingest/stdio`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        session: { id: "codex-stdio-01", command: "node files.js" },
        events: [
          {
            type: "answered",
            key: "stdin:1",
            stream: "stdin",
            at: t0,
            request: frame(list),
            answer: frame({ jsonrpc: "2.0", id: 1, result: { tools: [{ name: "read_file" }] } }),
            answerAt: t0 + 2,
          },
        ],
      }),
    });
    expect(stdio.status).toBe(200);
    const text = await postAndLeave(`${rec.taps.model.url}/v1/responses`, codexHeaders, responsesBody);
    expect(text).toContain("response.completed");

    const trace = await oneTrace(7);
    expect(trace.name).toBe(QUESTION);
    expect(trace.exchanges.map((x) => x.seq)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(trace.exchanges.filter((x) => x.method === "STDIO")).toHaveLength(1);
    expect(trace.errorCount).toBe(0);
    // The MCP session joined the run the probe opened; the turn claimed it.
    expect(trace.groupedBy).toBe("agent-start");
    const turn = trace.exchanges.find((x) => x.url === "/v1/responses")!;
    expect(turn).toMatchObject({ state: "complete", error: null });
    const listed = trace.exchanges.find(
      (x) => x.classification.kind === "mcp" && x.classification.method === "prompts/list",
    );
    expect(listed?.classification).toMatchObject({ outcome: "not-offered", errorCode: -32601 });
  });

  it("a 400 from the model server is recorded as a refusal with the server's words", async () => {
    const model = await modelUpstream();
    ups.push(model);
    rec = await startRecorder({ model: model.url });
    const res = await request(`${rec.taps.model.url}/v1/chat/completions`, {
      method: "POST",
      body: JSON.stringify({ model: "qwen2.5:7b", stream: true, messages: [{ role: "user", content: QUESTION }] }),
      headers: { "content-type": "application/json", "user-agent": "QwenCode/0.24.4 (linux; x64)" },
    });
    expect(res.status).toBe(400);
    const trace = await oneTrace(1);
    expect(trace.exchanges[0]).toMatchObject({
      status: 400,
      state: "complete",
      classification: { kind: "model.chat", refusal: '"qwen2.5:7b" does not support thinking' },
    });
  });
});

describe("a stdio server stopped by its host", () => {
  it("ended normally (SIGTERM), and its session is named by its messages, not its stderr", async () => {
    rec = await startRecorder({});
    const t0 = Date.now();
    const init = { jsonrpc: "2.0", id: 0, method: "initialize", params: {} };
    const batch = {
      session: { id: "wrap-sigterm-01", command: "node notes-stdio.js" },
      events: [
        { type: "line", stream: "stderr", at: t0, frame: frame("notes server ready") },
        {
          type: "answered",
          key: "stdin:0",
          stream: "stdin",
          at: t0 + 1,
          request: frame(init),
          answer: frame({ jsonrpc: "2.0", id: 0, result: { serverInfo: { name: "notes" } } }),
          answerAt: t0 + 3,
        },
        { type: "exit", at: t0 + 50, code: null, signal: "SIGTERM" },
      ],
    };
    const res = await request(`${rec.url}/api/ingest/stdio`, {
      method: "POST",
      body: JSON.stringify(batch),
      headers: { "content-type": "application/json" },
    });
    expect(res.status).toBe(200);
    const trace = await oneTrace(3);
    expect(trace.name).toBe("MCP session: initialize");
    expect(trace.errorCount).toBe(0);
    expect(trace.exchanges.find((x) => x.url === "exit")).toMatchObject({ state: "complete", error: null });
  });
});
