/**
 * The four agents' recorded requests (tests/fixtures/agents: Claude Code, Codex, opencode, Qwen Code asked
 * "Add buy milk to my notes" through the taps): each agent's MCP session and model requests group into one
 * run, and each run is named by the question, never by the agent's boilerplate.
 */
import { readFileSync, readdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { FallbackGrouper, conversationOf } from "@hopscope/shared/trace/group";
import { agentRequestOf, listedToolNames } from "@hopscope/shared/trace/agent-run";
import { mcpClientOf } from "@hopscope/shared/trace/group-mcp";
import { isRecord, pathOf } from "@hopscope/shared/trace/json-text";
import { tryParseJson } from "@hopscope/shared/json/parse";
import { questionOf } from "../src/recording/trace-title";

const DIR = fileURLToPath(new URL("../../../tests/fixtures/agents/", import.meta.url));
const QUESTION = "Add buy milk to my notes";

interface Recorded {
  method: string;
  path: string;
  headers: Record<string, string> | [string, string][];
  requestBody: string;
  status: number;
  responseBody: string | null;
}

const pairs = (h: Recorded["headers"]): [string, string][] => (Array.isArray(h) ? h : Object.entries(h));
const load = (agent: string, file: string): unknown => JSON.parse(readFileSync(`${DIR}${agent}/${file}`, "utf8"));
const modelRequests = (agent: string): Recorded[] =>
  readdirSync(`${DIR}${agent}`)
    .filter((f) => /^model-\d+\.json$/.test(f))
    .sort()
    .map((f) => load(agent, f) as Recorded);

describe.each(["claude-code", "codex", "opencode", "qwen-code"])("%s's recorded run", (agent) => {
  it("is one trace: its MCP session and every model request", () => {
    let n = 0;
    const g = new FallbackGrouper({ newTraceId: () => `${agent}-${++n}` });
    const traces = new Set<string>();
    let t = 0;
    for (const x of load(agent, "mcp.json") as Recorded[]) {
      const body = tryParseJson(x.requestBody);
      const method = isRecord(body) && typeof body.method === "string" ? body.method : undefined;
      const client = mcpClientOf("127.0.0.1:40100", pairs(x.headers), body);
      const r = g.assignMcp(method, undefined, (t += 20), client);
      traces.add(r.traceId);
      if (method === "tools/list") g.noteListedTools(r.traceId, listedToolNames(x.responseBody), t);
    }
    modelRequests(agent).forEach((x, i) => {
      const body = tryParseJson(x.requestBody);
      const connection = `127.0.0.1:${40200 + i}`;
      const messages = conversationOf(pathOf(x.path), body) ?? [];
      const agentRequest = agentRequestOf(connection, pairs(x.headers), body);
      traces.add(g.assignModelChat(messages, (t += 500), null, connection, agentRequest).traceId);
    });
    expect([...traces]).toHaveLength(1);
  });

  it("is named by the question in each of its model requests", () => {
    for (const x of modelRequests(agent)) {
      const q = questionOf(pathOf(x.path), tryParseJson(x.requestBody));
      expect(q?.replace(/\s+/g, " ").trim()).toBe(QUESTION);
    }
  });
});
