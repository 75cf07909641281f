/**
 * End to end over real HTTP, everything on port 0: the notes MCP server (temp notes file), the stand-in
 * model and the agent host, with a recording pass-through on each of the host's upstream links so the
 * test sees exactly what the model server and the MCP server received (the article's Part 4 trace).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AgentErrorSchema, AgentResponseSchema, type AgentResponse } from "@hopscope/shared/agent/schemas";
import { ChatRequestSchema, LESSON_HEADER, type ChatRequest } from "@hopscope/shared/ollama/schemas";
import { ListToolsResultSchema } from "@hopscope/shared/mcp/tools";
import { resultResponseSchema } from "@hopscope/shared/mcp/schemas";
import { closedPortUrl } from "./support/closed-port";
import { startStack, type Stack } from "./support/stack";

const TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736";
const INCOMING_TRACEPARENT = `00-${TRACE_ID}-00f067aa0ba902b7-01`;

function ok(result: { status: number; body: unknown }): AgentResponse {
  expect(result.status, JSON.stringify(result.body)).toBe(200);
  return AgentResponseSchema.parse(result.body);
}

function modelRequests(stack: Stack): ChatRequest[] {
  return stack.modelRecorder!.jsonBodies("/api/chat").map((b) => ChatRequestSchema.parse(b));
}

interface McpRecord {
  headers: Record<string, string | string[] | undefined>;
  body: { id: number; method: string; params: Record<string, unknown> & { _meta: Record<string, unknown> } };
}

function mcpRequests(stack: Stack): McpRecord[] {
  return stack.mcpRecorder!.exchanges.map((e) => ({
    headers: e.headers,
    body: JSON.parse(e.requestBody) as McpRecord["body"],
  }));
}

function traceIdOf(header: unknown): string {
  expect(header).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-[0-9a-f]{2}$/);
  return String(header).split("-")[1]!;
}

describe("the article's trace: add buy milk, then read it back", () => {
  let stack: Stack;
  let first: AgentResponse;
  let second: AgentResponse;

  beforeAll(async () => {
    stack = await startStack();
    first = ok(await stack.ask("Add buy milk to my notes", undefined, { traceparent: INCOMING_TRACEPARENT }));
    second = ok(await stack.ask("What's in my notes?", first.conversationId));
  });
  afterAll(() => stack?.close());

  it("adds the line with exactly one append call and says so", async () => {
    expect(first.toolCalls).toEqual([
      { name: "append", arguments: { content: "buy milk" }, output: "Success", isError: false },
    ]);
    expect(first.steps).toBe(2);
    expect(first.reply).toContain("buy milk");
    expect((await stack.readNotes()).trimEnd().endsWith("buy milk")).toBe(true);
  });

  it("reads the notes in the same conversation", () => {
    expect(second.conversationId).toBe(first.conversationId);
    expect(second.toolCalls).toHaveLength(1);
    expect(second.toolCalls[0]).toMatchObject({ name: "read", arguments: {}, isError: false });
    expect(second.toolCalls[0]!.output).toContain("buy milk");
    expect(second.reply).toContain("buy milk");
  });

  it("sends the model what the article shows: stream false, keep_alive 30m, the MCP tools as parameters", () => {
    const [req] = modelRequests(stack);
    expect(req).toMatchObject({ model: "qwen2.5:7b", stream: false, keep_alive: "30m" });
    expect(req!.messages).toEqual([{ role: "user", content: "Add buy milk to my notes" }]);
    const listed = resultResponseSchema(ListToolsResultSchema).parse(
      JSON.parse(stack.mcpRecorder!.exchanges[0]!.responseBody),
    );
    expect(listed.result.tools.map((t) => t.name)).toEqual(["read", "write", "append", "update", "clear"]);
    // The article's single map(): inputSchema becomes parameters, byte for byte.
    const sent = JSON.parse(stack.modelRecorder!.exchanges[0]!.requestBody) as { tools: unknown[] };
    expect(sent.tools).toEqual(
      listed.result.tools.map((t) => ({
        type: "function",
        function: { name: t.name, description: t.description, parameters: t.inputSchema },
      })),
    );
  });

  it("resends the whole, growing history every step (tool_calls kept, tool results as role tool)", () => {
    const reqs = modelRequests(stack);
    expect(reqs).toHaveLength(4);
    const [r1, r2, r3, r4] = reqs.map((r) => r.messages);
    const appendCall = r2![1]!;
    expect(appendCall).toMatchObject({ role: "assistant", content: "" });
    expect(appendCall.tool_calls?.map((c) => c.function)).toEqual([
      expect.objectContaining({ name: "append", arguments: { content: "buy milk" } }),
    ]);
    expect(r2).toEqual([...r1!, appendCall, { role: "tool", content: "Success", tool_name: "append" }]);
    expect(r3).toEqual([
      ...r2!,
      { role: "assistant", content: first.reply },
      { role: "user", content: "What's in my notes?" },
    ]);
    const readCall = r4![r3!.length]!;
    expect(readCall.tool_calls?.map((c) => c.function.name)).toEqual(["read"]);
    expect(r4).toEqual([...r3!, readCall, { role: "tool", content: second.toolCalls[0]!.output, tool_name: "read" }]);
  });

  it("speaks MCP 2026-07-28 to the server: tools/list then tools/call, ids increasing, headers mirroring the body", () => {
    const reqs = mcpRequests(stack);
    expect(reqs.map((r) => r.body.method)).toEqual(["tools/list", "tools/call", "tools/list", "tools/call"]);
    const ids = reqs.map((r) => r.body.id);
    expect([...ids].sort((a, b) => a - b)).toEqual(ids);
    expect(new Set(ids).size).toBe(4);
    const call = reqs[1]!;
    expect(call.body.params).toMatchObject({ name: "append", arguments: { content: "buy milk" } });
    expect(call.body.params._meta).toMatchObject({
      "io.modelcontextprotocol/protocolVersion": "2026-07-28",
      "io.modelcontextprotocol/clientCapabilities": {},
      "io.modelcontextprotocol/clientInfo": { name: "hopscope-host", version: expect.any(String) },
    });
    expect(call.headers).toMatchObject({
      "mcp-protocol-version": "2026-07-28",
      "mcp-method": "tools/call",
      "mcp-name": "append",
      accept: "application/json, text/event-stream",
      "content-type": "application/json",
    });
    expect(reqs[0]!.headers["mcp-method"]).toBe("tools/list");
    expect(reqs[0]!.headers["mcp-name"]).toBeUndefined();
  });

  it("continues the incoming traceparent on every hop: same trace id, a new span each, also in _meta", () => {
    const firstTurnModel = stack.modelRecorder!.exchanges.slice(0, 2);
    const firstTurnMcp = mcpRequests(stack).slice(0, 2);
    const headers = [
      ...firstTurnModel.map((e) => e.headers.traceparent),
      ...firstTurnMcp.map((r) => r.headers.traceparent),
    ];
    for (const h of headers) expect(traceIdOf(h)).toBe(TRACE_ID);
    const spans = headers.map((h) => String(h).split("-")[2]);
    expect(new Set(spans).size).toBe(spans.length);
    expect(spans).not.toContain("00f067aa0ba902b7");
    for (const r of firstTurnMcp) expect(r.body.params._meta.traceparent).toBe(r.headers.traceparent);
  });

  it("starts one trace per question when none comes in", () => {
    const secondTurn = [
      ...stack.modelRecorder!.exchanges.slice(2).map((e) => e.headers.traceparent),
      ...mcpRequests(stack)
        .slice(2)
        .map((r) => r.headers.traceparent),
    ];
    const ids = new Set(secondTurn.map(traceIdOf));
    expect(ids.size).toBe(1);
    expect(ids.has(TRACE_ID)).toBe(false);
  });
});

describe("streaming from the model (AGENT_STREAM=true)", () => {
  it("aggregates the NDJSON chunks into the same answer", async () => {
    const stack = await startStack({ host: { stream: true } });
    try {
      const r = ok(await stack.ask("Add buy milk to my notes"));
      expect(r.toolCalls.map((c) => c.name)).toEqual(["append"]);
      expect(r.reply).toContain("buy milk");
      expect(modelRequests(stack).map((q) => q.stream)).toEqual([true, true]);
      // The second answer really arrived in several chunks.
      expect(stack.modelRecorder!.exchanges[1]!.responseBody.trim().split("\n").length).toBeGreaterThan(2);
    } finally {
      await stack.close();
    }
  });
});

describe("lessons (AGENT_LESSON → x-hopscope-lesson)", () => {
  it("write-instead-of-append: the model calls write and the earlier notes are lost", async () => {
    const stack = await startStack({ lesson: "write-instead-of-append", notes: "call mom\n" });
    try {
      const r = ok(await stack.ask("Add buy milk to my notes"));
      expect(r.toolCalls.map((c) => c.name)).toEqual(["write"]);
      const notes = await stack.readNotes();
      expect(notes).toContain("buy milk");
      expect(notes).not.toContain("call mom");
      expect(stack.modelRecorder!.exchanges[0]!.headers[LESSON_HEADER]).toBe("write-instead-of-append");
    } finally {
      await stack.close();
    }
  });

  it("missing-argument: a tool error goes back to the model, which fixes its call", async () => {
    const stack = await startStack({ lesson: "missing-argument", notes: "call mom\n" });
    try {
      const r = ok(await stack.ask("Add buy milk to my notes"));
      expect(r.toolCalls).toHaveLength(2);
      expect(r.toolCalls[0]).toMatchObject({ name: "append", arguments: {}, isError: true });
      expect(r.toolCalls[0]!.output).toMatch(/content/);
      expect(r.toolCalls[1]).toMatchObject({ name: "append", arguments: { content: "buy milk" }, isError: false });
      expect(await stack.readNotes()).toBe("call mom\nbuy milk\n");
      // The model saw the error as a tool message before retrying.
      const third = modelRequests(stack)[2]!;
      expect(third.messages).toContainEqual({ role: "tool", content: r.toolCalls[0]!.output, tool_name: "append" });
    } finally {
      await stack.close();
    }
  });

  it("unknown-tool: the host offers a stale tool, the MCP server answers a protocol error, the model retries", async () => {
    // The lesson makes the host play a stale host: it offers add_note, which the MCP server no longer has
    // (apps/host/src/agent/stale-tools.ts). The model picks it; the real server answers -32602 Unknown tool.
    const stack = await startStack({ lesson: "unknown-tool" });
    try {
      const r = ok(await stack.ask("Add buy milk to my notes"));
      expect(modelRequests(stack)[0]!.tools?.map((t) => t.function.name)).toEqual([
        "read",
        "write",
        "append",
        "update",
        "clear",
        "add_note",
      ]);
      expect(r.toolCalls[0]).toMatchObject({ name: "add_note", isError: true });
      expect(r.toolCalls[0]!.output).toMatch(/^Error: .*Unknown tool: add_note.*\(-32602\)$/);
      expect(r.toolCalls.at(-1)).toMatchObject({ name: "append", arguments: { content: "buy milk" }, isError: false });
      expect(modelRequests(stack)[1]!.messages.at(-1)).toEqual({
        role: "tool",
        content: r.toolCalls[0]!.output,
        tool_name: "add_note",
      });
      expect(await stack.readNotes()).toBe("buy milk\n");
    } finally {
      await stack.close();
    }
  });

  it("offers the stale tool only in the unknown-tool lesson", async () => {
    const stack = await startStack();
    try {
      ok(await stack.ask("Add buy milk to my notes"));
      expect(modelRequests(stack)[0]!.tools?.map((t) => t.function.name)).not.toContain("add_note");
    } finally {
      await stack.close();
    }
  });

  it("loop: the model keeps calling tools until the step guard answers 422 with every call made", async () => {
    const stack = await startStack({ lesson: "loop" });
    try {
      const res = await stack.ask("Add buy milk to my notes");
      expect(res.status).toBe(422);
      const body = AgentErrorSchema.parse(res.body);
      expect(body.error).toMatch(/did not finish within 5 steps \(AGENT_MAX_STEPS\)/);
      expect(body.steps).toBe(5);
      expect(body.toolCalls).toHaveLength(5);
      expect(body.toolCalls![0]).toMatchObject({ name: "append", isError: false });
      expect(modelRequests(stack)).toHaveLength(5);
      // The calls really ran, so the conversation keeps them and can go on.
      expect(body.conversationId).toEqual(expect.any(String));
      expect((await stack.ask("What's in my notes?", body.conversationId)).status).toBe(422);
    } finally {
      await stack.close();
    }
  });

  it("slow: the same correct answer, with the lesson sent to the model server", async () => {
    const stack = await startStack({ lesson: "slow" });
    try {
      const r = ok(await stack.ask("Add buy milk to my notes"));
      expect(r.toolCalls.map((c) => c.name)).toEqual(["append"]);
      expect(stack.modelRecorder!.exchanges.map((e) => e.headers[LESSON_HEADER])).toEqual(["slow", "slow"]);
    } finally {
      await stack.close();
    }
  });
});

describe("host errors a learner can act on", () => {
  it("model server down: 502 naming the URL and how to start one", async () => {
    const down = await closedPortUrl();
    const stack = await startStack({ model: { url: down }, record: false });
    try {
      const res = await stack.ask("Add buy milk to my notes");
      expect(res.status).toBe(502);
      expect(AgentErrorSchema.parse(res.body).error).toMatch(
        new RegExp(`^no model server at ${down}: start Ollama or run \`npm start\`, which starts the stand-in`),
      );
    } finally {
      await stack.close();
    }
  });

  it("MCP server down: 502 naming MCP_URL", async () => {
    const down = `${await closedPortUrl()}/mcp`;
    const stack = await startStack({ host: { mcpUrl: down }, record: false });
    try {
      const res = await stack.ask("Add buy milk to my notes");
      expect(res.status).toBe(502);
      const { error } = AgentErrorSchema.parse(res.body);
      expect(error).toContain(`no MCP server at ${down} (MCP_URL)`);
      expect(error).toContain("npm run start -w apps/mcp-server");
    } finally {
      await stack.close();
    }
  });

  it("model not pulled: the 404 of the model server becomes `ollama pull`", async () => {
    const stack = await startStack({ host: { model: "llama3.2:1b" } });
    try {
      const res = await stack.ask("Add buy milk to my notes");
      expect(stack.modelRecorder!.exchanges[0]!.status).toBe(404);
      expect(res.status).toBe(502);
      expect(AgentErrorSchema.parse(res.body).error).toMatch(
        /^model llama3\.2:1b is not pulled: run `ollama pull llama3\.2:1b`/,
      );
    } finally {
      await stack.close();
    }
  });

  it("step guard: with AGENT_MAX_STEPS=1 the append runs, then 422 lists it", async () => {
    const stack = await startStack({ host: { maxSteps: 1 } });
    try {
      const res = await stack.ask("Add buy milk to my notes");
      expect(res.status).toBe(422);
      const body = AgentErrorSchema.parse(res.body);
      expect(body.error).toMatch(/within 1 steps/);
      expect(body.toolCalls).toEqual([
        { name: "append", arguments: { content: "buy milk" }, output: "Success", isError: false },
      ]);
      expect(await stack.readNotes()).toBe("buy milk\n");
    } finally {
      await stack.close();
    }
  });

  it("bad body: 400 naming the field", async () => {
    const stack = await startStack({ record: false });
    try {
      const res = await fetch(`${stack.hostUrl}/agent`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ msg: "Add buy milk" }),
      });
      expect(res.status).toBe(400);
      const { error } = AgentErrorSchema.parse(await res.json());
      expect(error).toMatch(/^invalid \/agent body: message: /);
      expect(error).toContain('"msg"');
    } finally {
      await stack.close();
    }
  });
});
