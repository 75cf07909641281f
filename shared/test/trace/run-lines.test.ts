/**
 * The main line, retries and side requests of a run, read from what the four agents really sent
 * (tests/fixtures/agents/<agent>/model-NN.json, recorded through the model tap).
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { classifyExchange } from "@hopscope/shared/trace/classify";
import { FallbackGrouper, conversationOf } from "@hopscope/shared/trace/group";
import { agentRequestOf } from "@hopscope/shared/trace/agent-run";
import { requestRoles, type RequestRole } from "@hopscope/shared/trace/run-lines";
import type { ExchangeState, ExchangeSummary } from "@hopscope/shared/trace/schemas";

interface Recorded {
  method: string;
  path: string;
  headers: Record<string, string>;
  requestBody: string;
  status: number;
  responseHeaders: Record<string, string>;
  responseBody: string;
}

function recorded(agent: string, n: number): Recorded {
  const url = new URL(
    `../../../tests/fixtures/agents/${agent}/model-${String(n).padStart(2, "0")}.json`,
    import.meta.url,
  );
  return JSON.parse(readFileSync(url, "utf8")) as Recorded;
}

let nextId = 0;

/** A recorded request as the recorder summarises it: classified from its bytes, at `start` ms. */
function exchange(r: Recorded, start: number, state: ExchangeState = "complete"): ExchangeSummary {
  const cut = state === "aborted";
  return {
    id: ++nextId,
    traceId: "t",
    seq: nextId,
    tap: "model",
    method: r.method,
    url: r.path,
    upstream: "http://127.0.0.1:11434",
    status: r.status,
    state,
    error: null,
    timings: { start, requestEnd: start + 1, firstByte: start + 5, end: start + 50 },
    requestSize: r.requestBody.length,
    responseSize: r.responseBody.length,
    chunkCount: 1,
    classification: classifyExchange({
      tap: "model",
      method: r.method,
      url: r.path,
      status: r.status,
      requestText: r.requestBody,
      responseText: cut ? r.responseBody.slice(0, 200) : r.responseBody,
      responseHeaders: Object.entries(r.responseHeaders),
    }),
  };
}

function rolesOf(xs: ExchangeSummary[]): RequestRole[] {
  const roles = requestRoles(xs);
  return xs.map((x) => roles.get(x.id) as RequestRole);
}

describe("a run's lines, from what agents send", () => {
  it("Claude Code refused six times: the first request is the main line, the five after it retries of hop 1", () => {
    const xs = [1, 2, 3, 4, 5, 6].map((n) => exchange(recorded("claude-code", n), n * 1000));
    const [first, ...retries] = rolesOf(xs);
    expect(first).toEqual({ role: "main", reason: "the main line: the request that offers the most tools (12)" });
    expect(retries.map((r) => (r.role === "retry" ? [r.ofHop, r.attempt, r.side] : r.role))).toEqual([
      [1, 2, undefined],
      [1, 3, undefined],
      [1, 4, undefined],
      [1, 5, undefined],
      [1, 6, undefined],
    ]);
    // The fourth attempt offers the MCP tools that connected meanwhile (45, not 12): still the same messages.
    expect(retries[2]?.reason).toBe(
      `the same messages as hop 5, whose answer was refused (400: "qwen2.5:7b" does not support thinking)`,
    );
  });

  it("opencode: its title request is a side request, its question the main line", () => {
    const [title, main] = rolesOf([exchange(recorded("opencode", 1), 0), exchange(recorded("opencode", 2), 40)]);
    expect(title).toEqual({
      role: "side",
      purpose: "title generation",
      reason:
        `beside the main line (hop 3): its own system prompt ("You are a title generator."), ` +
        `no tools, a history that does not continue hop 3's; its own words ask for title generation`,
    });
    expect(main).toEqual({ role: "main", reason: "the main line: the request that offers the most tools (32)" });
  });

  it("Qwen Code: its memory subagent, sent after the answer, is a side request", () => {
    const [main, memory] = rolesOf([exchange(recorded("qwen-code", 1), 0), exchange(recorded("qwen-code", 2), 900)]);
    expect(main?.role).toBe("main");
    expect(memory).toMatchObject({ role: "side", purpose: "memory" });
    expect(memory?.reason).toContain(
      `its own system prompt ("You are now acting as the managed memory extraction subagent for an AI coding assistant."), other tools (6, the main line offers 14)`,
    );
  });

  it("Codex's one request is the main line", () => {
    expect(rolesOf([exchange(recorded("codex", 1), 0)])).toEqual([
      { role: "main", reason: "the main line: the request that offers the most tools (14)" },
    ]);
  });

  it("the next turn, which offers one more tool, continues the main line", () => {
    const first = recorded("claude-code", 1);
    const body = JSON.parse(first.requestBody) as { messages: unknown[]; tools: unknown[] };
    const next = {
      ...body,
      tools: [...body.tools, { name: "mcp__notes__append", input_schema: { type: "object" } }],
      messages: [
        ...body.messages,
        { role: "assistant", content: [{ type: "tool_use", id: "call_1", name: "ToolSearch", input: {} }] },
        { role: "user", content: [{ type: "tool_result", tool_use_id: "call_1", content: "mcp__notes__append" }] },
      ],
    };
    const ok = { ...first, status: 200, responseBody: "" };
    const roles = rolesOf([exchange(ok, 0), exchange({ ...ok, requestBody: JSON.stringify(next) }, 500)]);
    expect(roles.map((r) => r.role)).toEqual(["main", "main"]);
    expect(roles[0]?.reason).toBe("the main line: the system prompt of hop 3, which offers the most tools (13)");
    expect(roles[1]?.reason).toBe("the main line: continues hop 1's conversation");
  });

  it("a request sent again whole after its answer was cut is a retry; a retry of a side request stays on its side", () => {
    const xs = [
      exchange(recorded("opencode", 1), 0, "aborted"),
      exchange(recorded("opencode", 1), 10),
      exchange(recorded("opencode", 2), 40, "aborted"),
      exchange(recorded("opencode", 2), 900),
    ];
    const [, titleAgain, main, mainAgain] = rolesOf(xs);
    expect(titleAgain).toMatchObject({ role: "retry", ofHop: 1, attempt: 2, side: "title generation" });
    expect(main?.role).toBe("main");
    expect(mainAgain).toEqual({
      role: "retry",
      of: xs[2]?.id,
      ofHop: 5,
      attempt: 2,
      reason: "the same messages as hop 5, whose answer was cut",
    });
  });

  it("the same body sent again after a whole answer is a retry too", () => {
    const [, again] = rolesOf([exchange(recorded("codex", 1), 0), exchange(recorded("codex", 1), 3_000)]);
    expect(again).toMatchObject({
      role: "retry",
      ofHop: 1,
      attempt: 2,
      reason: "the same request as hop 1, sent again",
    });
  });

  it("requests recorded before lines were kept have no role", () => {
    const x = exchange(recorded("codex", 1), 0);
    if (x.classification.kind !== "model.chat") throw new Error("a model chat");
    const { line: _line, ...old } = x.classification;
    expect(requestRoles([{ ...x, classification: old }]).size).toBe(0);
  });
});

describe("two agents at once", () => {
  /** An MCP session over HTTP that lists the notes tools, as each agent opens one before it asks the model. */
  function mcpSession(g: FallbackGrouper, port: number, ua: string, now: number): string {
    const who = (id?: number) => ({
      connection: `127.0.0.1:${port}`,
      peer: `127.0.0.1 ${ua}`,
      ...(id === undefined ? {} : { jsonrpcId: id }),
    });
    const { traceId } = g.assignMcp("initialize", undefined, now, who(0));
    g.assignMcp("tools/list", undefined, now + 10, who(1));
    g.noteListedTools(traceId, ["append", "clear", "read", "update", "write"], now + 12);
    return traceId;
  }

  it("opencode and Qwen Code asked at once: two traces, each with its own main line and side request", () => {
    let n = 0;
    const g = new FallbackGrouper({ newTraceId: () => `run${++n}` });
    const runs = {
      opencode: mcpSession(g, 50001, "opencode/1.18.33", 0),
      "qwen-code": mcpSession(g, 50002, "undici", 3_000),
    };
    expect(runs.opencode).not.toBe(runs["qwen-code"]);
    const sent: [keyof typeof runs, number, number][] = [
      ["opencode", 1, 3_100],
      ["qwen-code", 1, 3_105],
      ["opencode", 2, 3_140],
      ["qwen-code", 2, 3_900],
    ];
    const byTrace = new Map<string, ExchangeSummary[]>();
    for (const [i, [agent, n, at]] of sent.entries()) {
      const r = recorded(agent, n);
      const body = JSON.parse(r.requestBody) as unknown;
      const conn = `127.0.0.1:${51000 + i}`;
      const { traceId } = g.assignModelChat(
        conversationOf(r.path, body) ?? [],
        at,
        null,
        conn,
        agentRequestOf(conn, Object.entries(r.headers), body),
      );
      expect(traceId, `${agent} request ${n}`).toBe(runs[agent]);
      byTrace.set(traceId, [...(byTrace.get(traceId) ?? []), exchange(r, at)]);
    }
    const side = (r: RequestRole) => (r.role === "side" ? r.purpose : r.role);
    expect(rolesOf(byTrace.get(runs.opencode) ?? []).map(side)).toEqual(["title generation", "main"]);
    expect(rolesOf(byTrace.get(runs["qwen-code"]) ?? []).map(side)).toEqual(["main", "memory"]);
  });
});
