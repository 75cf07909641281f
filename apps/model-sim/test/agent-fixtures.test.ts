/**
 * The model requests the real agents sent (tests/fixtures/agents, recorded from Claude Code 2.1.328, Codex 0.169,
 * opencode 1.18.33 and Qwen Code 0.24.4 asked "Add buy milk to my notes"), replayed byte for byte to the stand-in.
 * Each gets the call its notes tool needs under that agent's name for it — through the agent's deferred-tool
 * search where the agent hides MCP tools behind one — and, at Ollama's default window, what a real qwen2.5 would
 * get: Claude Code's trailing system message pushes the question out.
 */
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { glueChunk } from "@hopscope/shared/toolcall/chat-glue";
import { loadPromptEngine } from "../src/sim/engine";
import type { RunningServer } from "../src/server";
import { post, startSim } from "./helpers";

type Body = Record<string, any>;

function fixture(agent: string, n: number): { path: string; body: Body } {
  const url = new URL(`../../../tests/fixtures/agents/${agent}/model-0${n}.json`, import.meta.url);
  const rec = JSON.parse(readFileSync(url, "utf8")) as { path: string; requestBody: string };
  return { path: rec.path, body: JSON.parse(rec.requestBody) as Body };
}

let sim: RunningServer;
let small: RunningServer;
beforeAll(async () => {
  sim = await startSim({ contextLength: 32768 });
  small = await startSim();
});
afterAll(async () => {
  await Promise.all([sim.close(), small.close()]);
});

/** The answer, not streamed (the stand-in's whole-body writer gives the same result as the stream's events). */
async function send(s: RunningServer, path: string, body: Body): Promise<Body> {
  const res = await post(`${s.url}${path}`, { ...body, stream: false });
  expect(res.status).toBe(200);
  return JSON.parse(res.text) as Body;
}

const BUY_MILK = { content: "buy milk" };

describe("Claude Code's recorded requests", () => {
  it("with its MCP tools declared: mcp__notes__append, despite adaptive thinking and effort high", async () => {
    const { path, body } = fixture("claude-code", 4);
    expect([body.thinking.type, body.output_config.effort]).toEqual(["adaptive", "high"]);
    const res = await send(sim, path, body);
    expect(res.content[0]).toMatchObject({ type: "tool_use", name: "mcp__notes__append", input: BUY_MILK });
  });

  it("with its MCP tools deferred: ToolSearch select:mcp__notes__append, then the tool once declared", async () => {
    const { path, body } = fixture("claude-code", 1);
    const first = await send(sim, path, body);
    expect(first.content[0]).toMatchObject({
      type: "tool_use",
      name: "ToolSearch",
      input: { query: "select:mcp__notes__append", max_results: 5 },
    });
    const declaration = {
      name: "mcp__notes__append",
      description: "Append content to the end of the file",
      input_schema: { type: "object", properties: { content: { type: "string" } }, required: ["content"] },
    };
    const functions = `<functions>\n<function>${JSON.stringify({ description: declaration.description, name: declaration.name, parameters: declaration.input_schema })}</function>\n</functions>`;
    const second = await send(sim, path, {
      ...body,
      tools: [...body.tools, declaration],
      messages: [
        ...body.messages,
        { role: "assistant", content: [first.content[0]] },
        { role: "user", content: [{ type: "tool_result", tool_use_id: first.content[0].id, content: functions }] },
      ],
    });
    expect(second.content[0]).toMatchObject({ type: "tool_use", name: "mcp__notes__append", input: BUY_MILK });
  });

  it("at Ollama's default 4096: the trailing system message is kept and the question dropped", async () => {
    const { path, body } = fixture("claude-code", 4);
    expect(body.messages.at(-1).role).toBe("system");
    const res = await send(small, path, body);
    expect(res.content.some((b: Body) => b.type === "tool_use")).toBe(false);
    expect(res.content[0].text).toBe(
      "I can read, add to, change, overwrite or clear your notes. What would you like me to do?",
    );
  });
});

describe("Codex's, opencode's and Qwen Code's recorded requests", () => {
  it("Codex: the mcp__notes namespace's append, as Ollama names it: mcp__notes.append", async () => {
    const { path, body } = fixture("codex", 1);
    const res = await send(sim, path, body);
    const call = res.output.find((o: Body) => o.type === "function_call");
    expect([call.name, JSON.parse(call.arguments)]).toEqual(["mcp__notes.append", BUY_MILK]);
  });

  it("Codex on 0.32.7–0.32.9: web_search is a nameless function, and Ollama's parser gives every call that name", async () => {
    const older = await startSim({ contextLength: 32768, ollamaVersion: "0.32.9" });
    try {
      const { path, body } = fixture("codex", 1);
      const res = await send(older, path, body);
      const call = res.output.find((o: Body) => o.type === "function_call");
      expect([call.name, JSON.parse(call.arguments)]).toEqual(["", BUY_MILK]);
    } finally {
      await older.close();
    }
  });

  it("opencode: notes_append (its own `read` and `write` are file tools, not the notes server's)", async () => {
    const { path, body } = fixture("opencode", 2);
    const res = await send(sim, path, body);
    const call = res.choices[0].message.tool_calls[0].function;
    expect([call.name, JSON.parse(call.arguments)]).toEqual(["notes_append", BUY_MILK]);
  });

  it("Qwen Code: the deferred mcp__notes__append through its tool_call bridge, then words", async () => {
    // Not through tool_search first: Ollama's parser finds the declared name `tool_call` inside the
    // `<tool_call>` tag, so any call qwen2.5 writes here arrives named tool_call (see the next test).
    const { path, body } = fixture("qwen-code", 1);
    const step = async (messages: unknown[]) => (await send(sim, path, { ...body, messages })).choices[0].message;
    const first = await step(body.messages);
    expect(first.tool_calls[0].function.name).toBe("tool_call");
    expect(JSON.parse(first.tool_calls[0].function.arguments)).toEqual({
      name: "mcp__notes__append",
      arguments: BUY_MILK,
    });
    const second = await step([
      ...body.messages,
      first,
      { role: "tool", tool_call_id: first.tool_calls[0].id, content: "Success" },
    ]);
    expect([second.content, second.tool_calls]).toEqual(['I\'ve added "buy milk" to your notes.', undefined]);
  });

  it("Ollama's parser names any call `tool_call` when a tool of that name is declared (tools/tools.go findTool)", async () => {
    const { body } = fixture("qwen-code", 1);
    const engine = await loadPromptEngine("0.32.15");
    const parser = engine.toolParser(body.tools, "0.32.15");
    const words =
      '<tool_call>\n{"name": "tool_search", "arguments": {"query": "select:mcp__notes__append"}}\n</tool_call>';
    const glued = glueChunk(parser, words, true);
    if (!glued.send) throw new Error("the parser held the call back");
    expect(glued.tool_calls?.map((c) => [c.function.name, c.function.arguments])).toEqual([
      ["tool_call", { query: "select:mcp__notes__append" }],
    ]);
  });
});
