/**
 * Each workshop lesson at the model level: the request a host sends at each step, and what the
 * stand-in answers, i.e. the wire traffic a real small model making that mistake produces.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { OllamaMessage, OllamaTool } from "@hopscope/shared/ollama/schemas";
import type { RunningServer } from "../src/server";
import { NOTES_TOOLS, assistantCall, post, startSim, toolResult, user } from "./helpers";

let sim: RunningServer;
beforeAll(async () => {
  sim = await startSim({ slowLoadMs: 120, slowTokensPerSecond: 250 });
});
afterAll(() => sim.close());

interface Reply {
  model: string;
  message: { content: string; tool_calls?: { function: { name: string; arguments: Record<string, unknown> } }[] };
  load_duration: number;
  eval_count: number;
  eval_duration: number;
}

async function step(
  messages: OllamaMessage[],
  lesson: string | null,
  tools: OllamaTool[] = NOTES_TOOLS,
  model = "qwen2.5:7b",
): Promise<Reply> {
  const res = await post(
    `${sim.url}/api/chat`,
    { model, messages, tools, stream: false },
    lesson ? { "x-hopscope-lesson": lesson } : {},
  );
  expect(res.status, res.text).toBe(200);
  return JSON.parse(res.text) as Reply;
}
const calls = (r: Reply) => r.message.tool_calls?.map((c) => c.function) ?? [];
const ADD = user("Add buy milk to my notes");

describe("lessons", () => {
  it("none: append, then the article's reply", async () => {
    expect(calls(await step([ADD], null))).toEqual([{ index: 0, name: "append", arguments: { content: "buy milk" } }]);
    const done = await step(
      [ADD, assistantCall("append", { content: "buy milk" }), toolResult("append", "Success")],
      null,
    );
    expect(done.message).toEqual({ role: "assistant", content: 'I\'ve added "buy milk" to your notes.' });
  });

  it("write-instead-of-append: write replaces the notes, and the model believes it added", async () => {
    const first = await step([ADD], "write-instead-of-append");
    expect(calls(first)).toEqual([{ index: 0, name: "write", arguments: { content: "buy milk" } }]);
    const done = await step(
      [ADD, assistantCall("write", { content: "buy milk" }), toolResult("write", "Success")],
      "write-instead-of-append",
    );
    expect(done.message.content).toBe('I\'ve added "buy milk" to your notes.');
  });

  it("missing-argument: append {} → tool error → the fixed call → the reply", async () => {
    const lesson = "missing-argument";
    expect(calls(await step([ADD], lesson))).toEqual([{ index: 0, name: "append", arguments: {} }]);
    const history = [
      ADD,
      assistantCall("append", {}),
      toolResult("append", "Param (content) is required: append takes (content)."),
    ];
    expect(calls(await step(history, lesson))).toEqual([
      { index: 0, name: "append", arguments: { content: "buy milk" } },
    ]);
    const done = await step(
      [...history, assistantCall("append", { content: "buy milk" }), toolResult("append", "Success")],
      lesson,
    );
    expect(done.message.content).toBe('I\'ve added "buy milk" to your notes.');
  });

  it("unknown-tool, only the notes tools declared: the invented call is dropped by Ollama's parser, leaving nothing", async () => {
    const res = await step([ADD], "unknown-tool");
    expect(res.message.content).toBe("");
    expect(res.message.tool_calls).toBeUndefined();
    // The model did generate the call: its tokens are counted, and raw generate shows the text.
    expect(res.eval_count).toBeGreaterThan(10);
    const rendered = JSON.parse(
      (
        await post(`${sim.url}/api/chat`, {
          model: "qwen2.5:7b",
          messages: [ADD],
          tools: NOTES_TOOLS,
          _debug_render_only: true,
        })
      ).text,
    )._debug_info.rendered_template;
    const raw = JSON.parse(
      (
        await post(
          `${sim.url}/api/generate`,
          { model: "qwen2.5:7b", prompt: rendered, raw: true, stream: false },
          { "x-hopscope-lesson": "unknown-tool" },
        )
      ).text,
    );
    expect(raw.response).toContain('"name": "add_note"');
  });

  it("unknown-tool, an extra tool declared that the MCP server lacks: it is called, the protocol error comes back, append follows", async () => {
    const tools = [
      ...NOTES_TOOLS,
      {
        type: "function",
        function: {
          name: "add_note",
          description: "Add a note",
          parameters: { type: "object", properties: { content: { type: "string" } }, required: ["content"] },
        },
      },
    ];
    expect(calls(await step([ADD], "unknown-tool", tools))).toEqual([
      { index: 0, name: "add_note", arguments: { content: "buy milk" } },
    ]);
    const history = [
      ADD,
      assistantCall("add_note", { content: "buy milk" }),
      toolResult("add_note", "Error: MCP error -32602: Unknown tool: add_note"),
    ];
    expect(calls(await step(history, "unknown-tool", tools))).toEqual([
      { index: 0, name: "append", arguments: { content: "buy milk" } },
    ]);
  });

  it("loop: after every result it reads the notes again, never answering", async () => {
    let history: OllamaMessage[] = [
      ADD,
      assistantCall("append", { content: "buy milk" }),
      toolResult("append", "Success"),
    ];
    for (let i = 0; i < 4; i++) {
      const res = await step(history, "loop");
      expect(calls(res)).toEqual([{ index: 0, name: "read", arguments: {} }]);
      history = [...history, assistantCall("read", {}), toolResult("read", "buy milk\n")];
    }
  });

  it("lesson chosen by model name suffix: same behaviour, the name echoed, the lesson named in a response header", async () => {
    const res = await step([ADD], null, NOTES_TOOLS, "qwen2.5:7b+lesson=write-instead-of-append");
    expect(res.model).toBe("qwen2.5:7b+lesson=write-instead-of-append");
    expect(calls(res)[0]?.name).toBe("write");
    const streamed = await post(`${sim.url}/api/chat`, {
      model: "qwen2.5:7b+lesson=loop",
      messages: [ADD],
      tools: NOTES_TOOLS,
    });
    expect(streamed.headers.get("x-hopscope-lesson")).toBe("loop");
    const plain = await post(`${sim.url}/api/chat`, { model: "qwen2.5:7b", messages: [ADD], tools: NOTES_TOOLS });
    expect(plain.headers.get("x-hopscope-lesson")).toBeNull();
  });

  it("two different lessons in one request are refused", async () => {
    const res = await post(
      `${sim.url}/api/chat`,
      { model: "qwen2.5:7b+lesson=loop", messages: [ADD], stream: false },
      { "x-hopscope-lesson": "slow" },
    );
    expect(res.status).toBe(400);
    expect(JSON.parse(res.text).error).toMatch(/two different lessons/);
  });

  it("slow: a cold load on every request and slow tokens, both in the measured durations", async () => {
    for (let i = 0; i < 2; i++) {
      const res = await step([ADD], "slow");
      expect(calls(res)[0]?.name).toBe("append");
      expect(res.load_duration).toBeGreaterThanOrEqual(120e6);
      // Each generated token (and the end token) waited 1/250 s.
      expect(res.eval_duration).toBeGreaterThanOrEqual((res.eval_count * 1e9) / 250);
    }
  });
});
