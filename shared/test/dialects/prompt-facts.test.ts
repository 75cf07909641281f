/**
 * What the recorder says about an agent-sized prompt: the token budget from one tokenisation (its parts sum to the
 * count, and each whole turn counts what the turn alone counts), real tool names in every dialect, Ollama's
 * truncation of Claude Code's second request in a 4,096-token window, and what each agent sent that the model never
 * sees (Codex's developer messages and namespace tools, Anthropic's thinking settings, keys Go drops).
 */
import { beforeAll, describe, expect, it } from "vitest";
import { dialectOfPath } from "@hopscope/shared/dialects/dialect";
import { promptFacts } from "@hopscope/shared/dialects/prompt-facts";
import { renderDialect } from "@hopscope/shared/dialects/render-dialect";
import { keptMessages } from "@hopscope/shared/prompt/truncation";
import { renderChat } from "@hopscope/shared/prompt/render";
import { loadQwenTokenizer, type QwenTokenizer } from "@hopscope/shared/tokens/qwen";
import { type AgentRequest, claudeCodeRequest, codexRequest, opencodeRequest } from "./agent-requests";

let tok: QwenTokenizer;
beforeAll(async () => {
  tok = await loadQwenTokenizer();
});

function factsOf(r: AgentRequest, opts: { evaluated?: number; ollamaVersion?: string } = {}) {
  const d = dialectOfPath(r.path)!;
  const render = renderDialect(d, r.body, opts.ollamaVersion ? { ollamaVersion: opts.ollamaVersion } : {});
  const ids = tok.encode(render.text);
  const facts = promptFacts({
    dialect: d,
    client: r.body,
    render,
    opts: opts.ollamaVersion ? { ollamaVersion: opts.ollamaVersion } : {},
    count: tok.count,
    tokenStarts: tok.tokenStarts(render.text, ids),
    evaluated: opts.evaluated,
    sharesPrefix: false,
  });
  return { render, ids, facts };
}

describe("the token budget of agent-sized prompts", () => {
  for (const make of [claudeCodeRequest, codexRequest, opencodeRequest]) {
    it(`${make().agent}: the parts sum to the prompt's count, each turn counts what it counts alone, tools by their real names`, () => {
      const { render, ids, facts } = factsOf(make());
      const b = facts.budget;
      expect(b.total).toBe(ids.length);
      expect(b.parts.reduce((n, p) => n + p.tokens, 0)).toBe(ids.length);
      // A message part is a whole turn (<|im_start|> … <|im_end|>\n): special tokens split first, so the turn
      // tokenised alone gives the same tokens — a check of the one-pass counting that does not use it.
      for (const p of b.parts.filter((q) => q.kind === "message"))
        expect(p.tokens, p.label).toBe(tok.count(render.text.slice(p.start, p.end)));
      const tools = b.parts.filter((p) => p.kind === "tool");
      expect(tools.length).toBeGreaterThan(5);
      for (const t of tools) expect(t.label).not.toMatch(/\?|#\d/);
    });
  }

  it("names Claude Code's MCP tools as the model reads them, and its 38 tools are most of the prompt", () => {
    const b = factsOf(claudeCodeRequest()).facts.budget;
    expect(b.toolCount).toBe(38);
    expect(b.parts.map((p) => p.label)).toContain("Tool: mcp__notes__append");
    expect(b.toolsTotal / b.total).toBeGreaterThan(0.8);
    expect(b.templateTotal).toBeGreaterThan(0);
  });
});

describe("truncation to the context window", () => {
  it("drops Claude Code's question and the model's call in a 4,096-token window, keeping the system turn and the last message", () => {
    const { render, facts } = factsOf(claudeCodeRequest());
    const t = facts.truncation!;
    expect(t).toMatchObject({
      contextLength: 4096,
      contextSource: "default",
      dropped: [1, 2],
      droppedPaths: ["/messages/0", "/messages/1"],
      questionDropped: true,
      stillTooLong: true,
      numCtxInRequest: false,
    });
    // The kept prompt is what Ollama renders from the kept messages, counted.
    const native = render.converted.native as { messages: unknown[] };
    const roles = (native.messages as { role: string }[]).map((m) => m.role);
    const kept = renderChat({ ...native, messages: keptMessages(roles, 3).map((i) => native.messages[i]) }).text;
    expect(t.keptTokens).toBe(tok.count(kept));
    expect(t.renderedTokens).toBe(facts.budget.total);
  });

  it("drops nothing when the request's num_ctx is big enough, and follows num_ctx when it is not", () => {
    const base = claudeCodeRequest();
    const big = factsOf({ ...base, path: "/api/chat", body: nativeOf(base, 32768) });
    expect(big.facts.truncation).toBeUndefined();
    // Just short of the whole prompt: the question and the call go, and the rest fits.
    const limit = big.facts.budget.total - 20;
    const small = factsOf({ ...base, path: "/api/chat", body: nativeOf(base, limit) });
    expect(small.facts.truncation).toMatchObject({
      contextLength: limit,
      contextSource: "request",
      numCtxInRequest: true,
      stillTooLong: false,
    });
    expect(small.facts.truncation!.keptTokens).toBeLessThanOrEqual(limit);
    expect(small.facts.truncation!.dropped.length).toBeGreaterThan(0);
  });

  it("believes the server when it evaluated the whole prompt, and takes a first request's smaller count as the window", () => {
    const opencode = opencodeRequest();
    expect(factsOf(opencode, { evaluated: 99999 }).facts.truncation).toBeUndefined();
    const codex = factsOf(codexRequest(), { evaluated: 1000 }).facts.truncation!;
    expect(codex).toMatchObject({ contextLength: 1000, contextSource: "evaluated", evaluated: 1000 });
  });
});

describe("what never reaches the model", () => {
  const paths = (r: AgentRequest, ollamaVersion?: string) =>
    factsOf(r, ollamaVersion ? { ollamaVersion } : {}).facts.unseen.map((u) => `${u.kind} ${u.clientPath}`);

  it("Codex: its developer instructions, the tools inside its namespace tool before 0.32.7, and the settings Ollama never reads", () => {
    const got = paths(codexRequest());
    expect(got).toEqual(
      expect.arrayContaining([
        "role /input/0",
        "role /input/1",
        "field /tools/0/parameters/additionalProperties",
        "option /tool_choice",
        "option /store",
      ]),
    );
    // 0.32.7 expands the namespace into mcp__notes.read …; before, its tools never reach the model.
    expect(got.filter((p) => p.startsWith("tool /tools/6/"))).toEqual([]);
    expect(paths(codexRequest(), "0.32.6")).toEqual(
      expect.arrayContaining(["tool /tools/6/tools/0", "tool /tools/6/tools/4"]),
    );
    // Its two user messages are merged and printed: not listed.
    expect(got).not.toContain("role /input/2");
    expect(got).not.toContain("role /input/3");
  });

  it("Claude Code: thinking and effort (qwen2.5 cannot think), metadata, and JSON Schema keys of all 38 tools", () => {
    const unseen = factsOf(claudeCodeRequest()).facts.unseen;
    expect(unseen.map((u) => `${u.kind} ${u.clientPath}`)).toEqual(
      expect.arrayContaining(["option /thinking", "option /output_config/effort", "option /metadata"]),
    );
    expect(unseen.find((u) => u.clientPath === "/tools/0/input_schema/additionalProperties")?.what).toContain(
      "in 38 places",
    );
    expect(unseen.some((u) => u.kind === "role" || u.kind === "tool")).toBe(false);
  });

  it("opencode: the Chat Completions settings Ollama does not read; a native request lists no settings", () => {
    expect(paths(opencodeRequest())).toContain("option /tool_choice");
    expect(paths(opencodeRequest())).not.toContain("option /stream_options");
    const base = claudeCodeRequest();
    expect(paths({ ...base, path: "/api/chat", body: nativeOf(base, 32768) }).some((p) => p.startsWith("option"))).toBe(
      false,
    );
  });
});

/** The native /api/chat request Ollama builds from an agent's request, with num_ctx set. */
function nativeOf(r: AgentRequest, numCtx: number): Record<string, unknown> {
  const native = renderDialect(dialectOfPath(r.path)!, r.body).converted.native;
  return { ...native, options: { ...(native.options as object), num_ctx: numCtx } };
}

describe("the agents' captured requests (tests/fixtures/agents)", () => {
  it("every captured model request: the budget sums to the count, and every tool has its real name", async () => {
    const { readdirSync, readFileSync } = await import("node:fs");
    const root = new URL("../../../tests/fixtures/agents/", import.meta.url);
    let seen = 0;
    for (const agent of readdirSync(root)) {
      for (const file of readdirSync(new URL(`${agent}/`, root)).filter((f) => /^model-\d+\.json$/.test(f))) {
        const cap = JSON.parse(readFileSync(new URL(`${agent}/${file}`, root), "utf8")) as {
          path: string;
          requestBody: unknown;
        };
        const body = typeof cap.requestBody === "string" ? JSON.parse(cap.requestBody) : cap.requestBody;
        const path = cap.path.split("?")[0]!;
        if (!dialectOfPath(path) || !body || typeof body !== "object") continue;
        let facts;
        try {
          facts = factsOf({ agent: "codex", path, body: body as Record<string, unknown> }).facts;
        } catch {
          continue; // a request Ollama refuses has no prompt (the view says so)
        }
        expect(
          facts.budget.parts.reduce((n, p) => n + p.tokens, 0),
          `${agent}/${file}`,
        ).toBe(facts.budget.total);
        for (const p of facts.budget.parts.filter((q) => q.kind === "tool"))
          expect(p.label, `${agent}/${file}`).not.toMatch(/^Tool: (\?|#\d+)$/);
        seen++;
      }
    }
    expect(seen).toBeGreaterThan(5);
  });
});
