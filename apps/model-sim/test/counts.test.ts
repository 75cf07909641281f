/**
 * Counts are real measurements: `prompt_eval_count` is the Qwen token count of the prompt the prompt
 * engine renders for the request, `eval_count` the tokens of the raw output plus the end token, and a
 * rendered prompt replayed through raw `/api/generate` counts and answers as `/api/chat` did.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ChatRequest } from "@hopscope/shared/ollama/schemas";
import { loadQwenTokenizer, type QwenTokenizer } from "@hopscope/shared/tokens/qwen";
import { rawOutputFromMessage } from "@hopscope/shared/toolcall/raw-output";
import { DEFAULT_OLLAMA_VERSION, renderChat } from "@hopscope/shared/prompt/render";
import type { RunningServer } from "../src/server";
import { NOTES_TOOLS, assistantCall, post, startSim, toolResult, user } from "./helpers";

let sim: RunningServer;
let tokenizer: QwenTokenizer;
beforeAll(async () => {
  sim = await startSim();
  tokenizer = await loadQwenTokenizer();
});
afterAll(() => sim.close());

const turn1: ChatRequest = {
  model: "qwen2.5:7b",
  messages: [user("Add buy milk to my notes")],
  tools: NOTES_TOOLS,
  stream: false,
};
const turn2: ChatRequest = {
  ...turn1,
  messages: [
    user("Add buy milk to my notes"),
    assistantCall("append", { content: "buy milk" }),
    toolResult("append", "Success"),
  ],
};

describe("counts", () => {
  it.each([
    ["turn 1 (tools, one user message)", turn1],
    ["turn 2 (tool call and tool result in history)", turn2],
  ])("%s: prompt_eval_count = tokens of the rendered prompt; eval_count = output tokens + 1", async (_name, req) => {
    const prompt = renderChat(req, { ollamaVersion: DEFAULT_OLLAMA_VERSION }).text;
    expect(prompt).toContain('{"type": "function", "function": {append Append content'); // today's struct dump
    const body = JSON.parse((await post(`${sim.url}/api/chat`, req)).text);
    expect(body.prompt_eval_count).toBe(tokenizer.count(prompt));
    expect(body.eval_count).toBe(tokenizer.count(rawOutputFromMessage(body.message)) + 1);
    const debug = JSON.parse((await post(`${sim.url}/api/chat`, { ...req, _debug_render_only: true })).text);
    expect(debug._debug_info.rendered_template).toBe(prompt);
  });

  it("the tool result turn is counted with <tool_response> as ordinary text, as Qwen2.5 does", async () => {
    const body = JSON.parse((await post(`${sim.url}/api/chat`, turn2)).text);
    const prompt = renderChat(turn2).text;
    expect(prompt).toContain("<tool_response>\nSuccess\n</tool_response>");
    expect(body.prompt_eval_count).toBeGreaterThan(
      tokenizer.count(prompt.replace("<tool_response>\nSuccess\n</tool_response>", "")) + 3,
    );
  });

  it("raw /api/generate of the rendered prompt: same prompt_eval_count, same eval_count, the raw call text", async () => {
    const chat = JSON.parse((await post(`${sim.url}/api/chat`, turn1)).text);
    const prompt = JSON.parse((await post(`${sim.url}/api/chat`, { ...turn1, _debug_render_only: true })).text)
      ._debug_info.rendered_template;
    const gen = JSON.parse(
      (await post(`${sim.url}/api/generate`, { model: "qwen2.5:7b", prompt, raw: true, stream: false })).text,
    );
    expect(gen.prompt_eval_count).toBe(chat.prompt_eval_count);
    expect(gen.eval_count).toBe(chat.eval_count);
    expect(gen.response).toBe(rawOutputFromMessage(chat.message));
  });

  it("streamed /api/generate: the pieces are the output's tokens, and they add up to the non-streamed response", async () => {
    const res = await post(`${sim.url}/api/generate`, { model: "qwen2.5:7b", prompt: "Hello" });
    const chunks = res.text
      .trimEnd()
      .split("\n")
      .map((l) => JSON.parse(l) as { response: string; done: boolean; eval_count?: number; context?: number[] });
    const text = chunks.map((c) => c.response).join("");
    expect(chunks.length - 1).toBe(tokenizer.count(text));
    expect(chunks.at(-1)!.eval_count).toBe(tokenizer.count(text) + 1);
    expect(chunks.at(-1)!.context!.length).toBeGreaterThan(tokenizer.count(text));
    const whole = JSON.parse(
      (await post(`${sim.url}/api/generate`, { model: "qwen2.5:7b", prompt: "Hello", stream: false })).text,
    );
    expect(whole.response).toBe(text);
  });

  it("as Ollama 0.13.5 (SIM_OLLAMA_VERSION): the JSON-tools prompt is counted, and raw generate still reads it back", async () => {
    const older = await startSim({ ollamaVersion: "0.13.5" });
    try {
      const prompt = renderChat(turn1, { ollamaVersion: "0.13.5" }).text;
      expect(prompt).toContain('{"type": "function", "function": {"name":"append","description":"Append content');
      const chat = JSON.parse((await post(`${older.url}/api/chat`, turn1)).text);
      expect(chat.prompt_eval_count).toBe(tokenizer.count(prompt));
      const gen = JSON.parse(
        (await post(`${older.url}/api/generate`, { model: "qwen2.5:7b", prompt, raw: true, stream: false })).text,
      );
      expect(gen.response).toBe(rawOutputFromMessage(chat.message));
    } finally {
      await older.close();
    }
  });

  it("counts </s> in the prompt as its version's llama.cpp does: one control token from 0.30, three before", async () => {
    const req = { ...turn2, messages: [...turn2.messages.slice(0, 2), toolResult("append", "<s>old</s> new")] };
    const older = await startSim({ ollamaVersion: "0.20.0" });
    try {
      const prompt = renderChat(req).text;
      expect(prompt).toBe(renderChat(req, { ollamaVersion: "0.20.0" }).text);
      const today = JSON.parse((await post(`${sim.url}/api/chat`, req)).text).prompt_eval_count as number;
      const before = JSON.parse((await post(`${older.url}/api/chat`, req)).text).prompt_eval_count as number;
      expect(today).toBe(tokenizer.count(prompt));
      expect(before).toBe((await loadQwenTokenizer("0.20.0")).count(prompt));
      expect(before - today).toBe(2);
    } finally {
      await older.close();
    }
  });

  it("a conversation longer than num_ctx is truncated as Ollama does: oldest messages dropped, system and last kept", async () => {
    const last = user("What's in my notes?");
    const history = [
      user("Add buy milk to my notes"),
      assistantCall("append", { content: "buy milk" }),
      toolResult("append", "Success"),
      { role: "assistant", content: 'I\'ve added "buy milk" to your notes.' },
      last,
    ];
    const minimal = renderChat({ model: "qwen2.5:7b", messages: [last], tools: NOTES_TOOLS }).text;
    const numCtx = tokenizer.count(minimal) + 5;
    const req = {
      model: "qwen2.5:7b",
      messages: history,
      tools: NOTES_TOOLS,
      options: { num_ctx: numCtx },
      stream: false,
    };
    const debug = JSON.parse((await post(`${sim.url}/api/chat`, { ...req, _debug_render_only: true })).text)._debug_info
      .rendered_template;
    expect(debug).toBe(minimal);
    const body = JSON.parse((await post(`${sim.url}/api/chat`, req)).text);
    expect(body.prompt_eval_count).toBe(tokenizer.count(minimal));
    expect(body.message.tool_calls[0].function.name).toBe("read");
    const whole = JSON.parse((await post(`${sim.url}/api/chat`, { ...req, options: {} })).text);
    expect(whole.prompt_eval_count).toBe(tokenizer.count(renderChat(req).text));
  });
});
