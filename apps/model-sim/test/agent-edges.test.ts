/**
 * What Ollama's conversion does with what agents send, and what the model can then do: `thinking` and
 * `output_config.effort` (relaxed on /v1/messages, refused elsewhere), `reasoning.effort` on /v1/responses,
 * a `namespace` tool before and after Ollama expanded it, `developer` messages (never rendered for qwen2.5),
 * the learner's words inside injected blocks, and the lessons under agents' tool names.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningServer } from "../src/server";
import { ownWords } from "../src/policy/conversation";
import { findNotesTool, notesKindOf } from "../src/policy/tool-names";
import { QUESTION, claudeCodeRequest, codexRequest, notesTools } from "./agent-requests";
import { post, startSim } from "./helpers";

let sim: RunningServer;
let before: RunningServer;
beforeAll(async () => {
  sim = await startSim({ contextLength: 32768 });
  before = await startSim({ contextLength: 32768, ollamaVersion: "0.32.6" });
});
afterAll(async () => {
  await Promise.all([sim.close(), before.close()]);
});

const json = async (s: RunningServer, path: string, body: unknown, headers: Record<string, string> = {}) => {
  const res = await post(`${s.url}${path}`, body, headers);
  return { status: res.status, body: JSON.parse(res.text) as Record<string, any> };
};

describe("thinking and effort (anthropic.FromMessagesRequest, server/routes.go ChatHandler)", () => {
  it.each([
    [{ type: "adaptive" }, { effort: "high" }],
    [{ type: "enabled", budget_tokens: 4000 }, undefined],
    [undefined, { effort: "max" }],
  ])(
    "/v1/messages with thinking %j and output_config %j: relaxed to no thinking, answered",
    async (thinking, output) => {
      const body = { ...claudeCodeRequest(false), thinking, output_config: output };
      const res = await json(sim, "/v1/messages", body);
      expect(res.status).toBe(200);
      expect(res.body.content[0]).toMatchObject({ type: "tool_use", name: "mcp__notes__append" });
    },
  );

  it("the same think on /api/chat is refused: only the Anthropic middleware relaxes it", async () => {
    const res = await json(sim, "/api/chat", {
      model: "qwen2.5:7b",
      messages: [{ role: "user", content: QUESTION }],
      think: "high",
    });
    expect([res.status, res.body.error]).toEqual([400, '"qwen2.5:7b" does not support thinking']);
  });

  it("Codex's reasoning effort on /v1/responses is refused (no relaxing there); effort none is not", async () => {
    const refused = await json(sim, "/v1/responses", { ...codexRequest([], { effort: "medium" }), stream: false });
    expect(refused.status).toBe(400);
    expect(refused.body.error.message).toBe('"qwen2.5:7b" does not support thinking');
    const none = await json(sim, "/v1/responses", { ...codexRequest([], { effort: "none" }), stream: false });
    expect(none.status).toBe(200);
  });

  it('"max" is a think value from 0.22.0; before, it is a decode error', async () => {
    const req = { model: "qwen2.5:7b", messages: [{ role: "user", content: QUESTION }], think: "max" };
    const old = await startSim({ ollamaVersion: "0.21.0" });
    try {
      expect((await json(old, "/api/chat", req)).body.error).toBe(
        'invalid think value: "max" (must be "high", "medium", "low", true, or false)',
      );
      expect((await json(sim, "/api/chat", req)).body.error).toBe('"qwen2.5:7b" does not support thinking');
    } finally {
      await old.close();
    }
  });
});

describe("Responses: namespace tools and developer messages (openai/responses.go)", () => {
  it("before 0.32.7 the namespace reaches the model without its functions: it says so, not 'not given'", async () => {
    const res = await json(before, "/v1/responses", { ...codexRequest(), stream: false });
    const text = res.body.output[0].content[0].text as string;
    expect(res.body.output.some((o: { type: string }) => o.type === "function_call")).toBe(false);
    expect(text).toContain('"mcp__notes", but with no functions inside it');
    expect(text).not.toMatch(/wasn't given/);
  });

  it("a developer message is not rendered for qwen2.5: its text is not in the prompt", async () => {
    const render = await json(sim, "/api/chat", {
      model: "qwen2.5:7b",
      messages: [
        { role: "developer", content: "DEVELOPER-ONLY-TEXT" },
        { role: "user", content: QUESTION },
      ],
      _debug_render_only: true,
    });
    const prompt = render.body._debug_info.rendered_template as string;
    expect(prompt).toContain(QUESTION);
    expect(prompt).not.toContain("DEVELOPER-ONLY-TEXT");
  });
});

describe("tool names", () => {
  const fn = (name: string) => ({ type: "function", function: { name } });
  it.each([
    ["mcp__notes__append", "append"],
    ["notes_append", "append"],
    ["notes__append", "append"],
    ["mcp__notes.append", "append"],
    ["append", "append"],
    ["Read", null],
    ["read_file", null],
    ["mcp__everything__get-env", null],
  ])("%s → %s", (name, kind) => {
    expect(notesKindOf(name)).toBe(kind);
  });

  it("the server with the most notes tools wins over an agent's own read/write", () => {
    const tools = ["read", "write", "bash", ...["read", "write", "append"].map((k) => `notes_${k}`)].map(fn);
    expect(findNotesTool(tools, "read")?.function.name).toBe("notes_read");
    expect(findNotesTool([fn("read"), fn("write")], "read")?.function.name).toBe("read");
  });
});

describe("the learner's own words", () => {
  it.each([
    [`<system-reminder>\nContext: add milk to the cart\n</system-reminder>\n${QUESTION}`, QUESTION],
    [`<environment_context>\n  <cwd>/tmp</cwd>\n</environment_context>`, ""],
    [`# AGENTS.md instructions for /tmp/w\n\n<INSTRUCTIONS>\nAdd tests always.\n</INSTRUCTIONS>`, ""],
    [`${QUESTION}\n\n<system-reminder>\nTodo list empty\n</system-reminder>`, QUESTION],
  ])("%j → %j", (text, words) => {
    expect(ownWords(text)).toBe(words);
  });

  it("a reminder that itself says 'add' does not become the question", async () => {
    const res = await json(sim, "/api/chat", {
      model: "qwen2.5:7b",
      stream: false,
      tools: notesTools((t) => `mcp__notes__${t}`).map((s) => ({ type: "function", function: s })),
      messages: [
        { role: "user", content: "What's in my notes?" },
        { role: "user", content: "<system-reminder>\nAdd tests before you commit.\n</system-reminder>" },
      ],
    });
    expect(res.body.message.tool_calls[0].function.name).toBe("mcp__notes__read");
  });
});

describe("lessons under agents' tool names", () => {
  const opencodeTools = [
    ...["read", "write", "bash"].map((n) => ({
      type: "function",
      function: { name: n, description: `opencode ${n}` },
    })),
    ...notesTools((t) => `notes_${t}`).map((s) => ({ type: "function", function: s })),
  ];
  const ask = (lesson: string, messages: unknown[] = [{ role: "user", content: QUESTION }]) =>
    json(
      sim,
      "/api/chat",
      { model: "qwen2.5:7b", stream: false, tools: opencodeTools, messages },
      {
        "x-hopscope-lesson": lesson,
      },
    );

  it("write-instead-of-append picks the notes server's write (notes_write), not the agent's own `write`", async () => {
    const res = await ask("write-instead-of-append");
    expect(res.body.message.tool_calls[0].function).toMatchObject({
      name: "notes_write",
      arguments: { content: "buy milk" },
    });
  });

  it("loop reads the notes again with notes_read; missing-argument calls notes_append with {}", async () => {
    const afterCall = [
      { role: "user", content: QUESTION },
      {
        role: "assistant",
        content: "",
        tool_calls: [{ function: { name: "notes_append", arguments: { content: "buy milk" } } }],
      },
      { role: "tool", content: "Success", tool_name: "notes_append" },
    ];
    expect((await ask("loop", afterCall)).body.message.tool_calls[0].function.name).toBe("notes_read");
    expect((await ask("missing-argument")).body.message.tool_calls[0].function).toMatchObject({
      name: "notes_append",
      arguments: {},
    });
  });

  it("unknown-tool does not reach for the agent's own tools: the invented name is dropped by Ollama's parser", async () => {
    const res = await ask("unknown-tool");
    expect(res.body.message.tool_calls).toBeUndefined();
    expect(res.body.message.content).toBe("");
  });
});
