/**
 * The host's HTTP API against the real notes MCP server and the real stand-in model (tests/support
 * starts them on port 0): input validation, health, wrong wiring, and MCP answers that arrive as SSE.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AgentErrorSchema, AgentHealthSchema, AgentResponseSchema } from "@hopscope/shared/agent/schemas";
import { postJson, startStack, type Stack } from "../../../tests/support/stack";
import type { Tool } from "@hopscope/shared/mcp/tools";
import { ChatRequestSchema } from "@hopscope/shared/ollama/schemas";
import { loadConfig, type Config } from "../src/config";
import { start } from "../src/server";

describe("POST /agent input", () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ record: false });
  });
  afterAll(() => stack?.close());

  it.each([
    ["no message", {}, /^invalid \/agent body: message: message must be a string/],
    ["a number", { message: 42 }, /^invalid \/agent body: message: message must be a string/],
    ["an empty message", { message: "   " }, /^invalid \/agent body: message: message must not be empty/],
    ["an unknown field", { message: "hi", conversation: "x" }, /^invalid \/agent body: body: .*"conversation"/],
    ["a bad conversationId", { message: "hi", conversationId: 7 }, /conversationId: conversationId must be a string/],
    ["an array", ["hi"], /^invalid \/agent body: body: /],
  ])("answers 400 for %s", async (_name, body, error) => {
    const res = await postJson(`${stack.hostUrl}/agent`, body);
    expect(res.status).toBe(400);
    expect(AgentErrorSchema.parse(res.body).error).toMatch(error);
  });

  it("answers 400 for a body that is not JSON, or none", async () => {
    const notJson = await postJson(`${stack.hostUrl}/agent`, "message=hi");
    expect(notJson.status).toBe(400);
    expect(AgentErrorSchema.parse(notJson.body).error).toMatch(
      /^invalid \/agent body: not JSON .*Content-Type: application\/json/,
    );
    const empty = await postJson(`${stack.hostUrl}/agent`, "");
    expect(empty.status).toBe(400);
    expect(AgentErrorSchema.parse(empty.body).error).toMatch(/the body is empty/);
  });

  it("answers 413 for a body over a megabyte", async () => {
    const res = await postJson(`${stack.hostUrl}/agent`, { message: "x".repeat(1024 * 1024) });
    expect(res.status).toBe(413);
    expect(AgentErrorSchema.parse(res.body).error).toMatch(/larger than 1048576 bytes/);
  });

  it("answers 404 for a conversation it does not know, and says how to start one", async () => {
    const res = await stack.ask("hi", "4f1e3c1e-0000-4000-8000-000000000000");
    expect(res.status).toBe(404);
    expect(AgentErrorSchema.parse(res.body).error).toMatch(
      /is unknown .*leave conversationId out to start a new conversation/,
    );
  });

  it("keeps separate conversations apart", async () => {
    const a = AgentResponseSchema.parse((await stack.ask("Add buy milk to my notes")).body);
    const b = AgentResponseSchema.parse((await stack.ask("Add call mom to my notes")).body);
    expect(a.conversationId).not.toBe(b.conversationId);
  });

  it("serves GET /health with its wiring, and a JSON 404 elsewhere", async () => {
    const health = await fetch(`${stack.hostUrl}/health`);
    expect(health.status).toBe(200);
    expect(AgentHealthSchema.parse(await health.json())).toMatchObject({
      ok: true,
      model: "qwen2.5:7b",
      ollamaUrl: stack.modelUrl,
      mcpUrl: stack.mcpUrl,
      maxSteps: 5,
      stream: false,
      lesson: null,
    });
    const missing = await fetch(`${stack.hostUrl}/agents`);
    expect(missing.status).toBe(404);
    expect(AgentErrorSchema.parse(await missing.json()).error).toMatch(/serves POST \/agent and GET \/health/);
  });
});

describe("wrong wiring", () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ record: false });
  });
  afterAll(() => stack?.close());

  /** A second host on the same upstreams, with some settings wrong. */
  async function askWith(overrides: Partial<Config>) {
    const host = await start({
      ...loadConfig({}),
      port: 0,
      ollamaUrl: stack.modelUrl,
      mcpUrl: stack.mcpUrl,
      ...overrides,
    });
    try {
      return await postJson(`${host.url}/agent`, { message: "Add buy milk to my notes" });
    } finally {
      await host.close();
    }
  }

  it("OLLAMA_URL pointing at a server that is not Ollama: 502 with a hint", async () => {
    // The MCP server answers /api/chat with its own 404: a server, but not a model server.
    const res = await askWith({ ollamaUrl: new URL(stack.mcpServerUrl).origin });
    expect(res.status).toBe(502);
    expect(AgentErrorSchema.parse(res.body).error).toMatch(
      /\/api\/chat answered HTTP 404: .*is OLLAMA_URL an Ollama server\?/,
    );
  });

  it("MCP_URL missing the /mcp path: 502 saying so", async () => {
    const res = await askWith({ mcpUrl: new URL(stack.mcpServerUrl).origin });
    expect(res.status).toBe(502);
    expect(AgentErrorSchema.parse(res.body).error).toMatch(/\(MCP_URL\) failed: tools\/list answered HTTP 404/);
  });

  it("forwards AGENT_LESSON to the model server, which rejects a lesson it does not know with a 400", async () => {
    // Config validation stops typos; a hand-built Config shows what a stand-in says to a bad header.
    const res = await askWith({ lesson: "not-a-lesson" as Config["lesson"] });
    expect(res.status).toBe(502);
    expect(AgentErrorSchema.parse(res.body).error).toMatch(/answered HTTP 400: .*unknown lesson "not-a-lesson"/);
  });
});

/**
 * In front of the real MCP server: answer each POST as an SSE stream (a keep-alive comment, a progress
 * notification, then the server's response, written in small pieces), as a 2026-07-28 server may.
 */
async function startSseFront(mcpUrl: string): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const headers = Object.fromEntries(
        Object.entries(req.headers).filter((e): e is [string, string] => typeof e[1] === "string" && e[0] !== "host"),
      );
      fetch(mcpUrl, { method: "POST", headers, body: Buffer.concat(chunks) })
        .then(async (up) => {
          const body = (await up.text()).replace(/\n/g, "");
          res.writeHead(up.status, { "content-type": "text/event-stream", "cache-control": "no-cache" });
          const progress = JSON.stringify({
            jsonrpc: "2.0",
            method: "notifications/progress",
            params: { progress: 1 },
          });
          const stream = `: keep-alive\r\n\r\nevent: message\r\ndata: ${progress}\r\n\r\nevent: message\r\ndata: ${body}\r\n\r\n`;
          for (let i = 0; i < stream.length; i += 40) res.write(stream.slice(i, i + 40));
          res.end();
        })
        .catch((err: unknown) => {
          res.writeHead(500);
          res.end(String(err));
        });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`, server };
}

describe("an MCP server that answers with SSE", () => {
  it("runs the same loop: tools listed, append called, result read from the stream", async () => {
    const stack = await startStack({ record: false });
    const front = await startSseFront(stack.mcpServerUrl);
    try {
      const viaSse = await startStack({ record: false, host: { mcpUrl: front.url } });
      try {
        const res = await viaSse.ask("Add buy milk to my notes");
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        const body = AgentResponseSchema.parse(res.body);
        expect(body.toolCalls).toEqual([
          { name: "append", arguments: { content: "buy milk" }, output: "Success", isError: false },
        ]);
        expect(await stack.readNotes()).toBe("buy milk\n");
      } finally {
        await viaSse.close();
      }
    } finally {
      await new Promise<void>((resolve) => {
        front.server.close(() => resolve());
        front.server.closeAllConnections();
      });
      await stack.close();
    }
  });
});

describe("tools with x-mcp-header annotations", () => {
  it("mirrors annotated arguments as Mcp-Param-* headers and drops a tool with invalid annotations", async () => {
    // Stage a server that annotates append's `content` and adds a tool whose annotation is invalid.
    const stack = await startStack({
      rewriteMcpResponse: (req, body) => {
        if (!req.body.includes('"tools/list"')) return body;
        const msg = JSON.parse(body) as { result: { tools: Tool[] } };
        const append = msg.result.tools.find((t) => t.name === "append")!;
        append.inputSchema.properties!.content!["x-mcp-header"] = "Note";
        msg.result.tools.push({
          name: "resize",
          inputSchema: { type: "object", properties: { size: { type: "number", "x-mcp-header": "Size" } } },
        });
        return JSON.stringify(msg);
      },
    });
    try {
      const res = await stack.ask("Add buy milk to my notes");
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      const call = stack.mcpRecorder!.exchanges.find((e) => e.headers["mcp-method"] === "tools/call")!;
      expect(call.headers["mcp-param-note"]).toBe("buy milk");
      const offered = ChatRequestSchema.parse(stack.modelRecorder!.jsonBodies("/api/chat")[0]).tools!.map(
        (t) => t.function.name,
      );
      expect(offered).toContain("append");
      expect(offered).not.toContain("resize");
    } finally {
      await stack.close();
    }
  });
});
