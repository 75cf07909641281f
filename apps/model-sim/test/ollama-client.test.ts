/**
 * The official `ollama` npm client against model-sim: whatever a program written for Ollama does, it
 * must be able to do against the stand-in, and get Ollama-shaped answers.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Ollama } from "ollama";
import { QWEN25_DIGEST } from "@hopscope/shared/ollama/qwen25-facts";
import { DEFAULT_OLLAMA_VERSION } from "@hopscope/shared/prompt/version";
import { QWEN25_SYSTEM, QWEN25_TEMPLATE } from "@hopscope/shared/prompt/qwen25";
import type { RunningServer } from "../src/server";
import { NOTES_TOOLS, startSim } from "./helpers";

let sim: RunningServer;
let ollama: Ollama;

beforeAll(async () => {
  sim = await startSim();
  ollama = new Ollama({ host: sim.url });
});
afterAll(() => sim.close());

const ask = [{ role: "user", content: "Add buy milk to my notes" }];

describe("ollama npm client against model-sim", () => {
  it("chat with tools, not streamed: one append call and empty content, as the article's moment 4", async () => {
    const res = await ollama.chat({
      model: "qwen2.5:7b",
      messages: ask,
      tools: NOTES_TOOLS as never,
      stream: false,
      keep_alive: "30m",
    });
    expect(res.message.content).toBe("");
    expect(res.message.tool_calls).toHaveLength(1);
    expect(res.message.tool_calls![0]!.function).toMatchObject({ name: "append", arguments: { content: "buy milk" } });
    expect(res.done).toBe(true);
    expect(res.done_reason).toBe("stop");
    expect(res.prompt_eval_count).toBeGreaterThan(100);
    expect(res.eval_count).toBeGreaterThan(5);
  });

  it("chat with tools, streamed: the call arrives whole in its own chunk, then the done chunk with metrics", async () => {
    const stream = await ollama.chat({ model: "qwen2.5:7b", messages: ask, tools: NOTES_TOOLS as never, stream: true });
    const chunks = [];
    for await (const chunk of stream) chunks.push(chunk);
    expect(chunks).toHaveLength(2);
    expect(chunks[0]!.done).toBe(false);
    expect(chunks[0]!.message.tool_calls?.[0]?.function.name).toBe("append");
    expect(chunks[1]!.done).toBe(true);
    expect(chunks[1]!.message.content).toBe("");
    expect(chunks[1]!.eval_count).toBeGreaterThan(0);
  });

  it("chat after a tool result, streamed: a grounded reply token by token", async () => {
    const stream = await ollama.chat({
      model: "qwen2.5:7b",
      messages: [
        ...ask,
        {
          role: "assistant",
          content: "",
          tool_calls: [{ function: { name: "append", arguments: { content: "buy milk" } } }],
        },
        { role: "tool", content: "Success", tool_name: "append" } as never,
      ],
      tools: NOTES_TOOLS as never,
      stream: true,
    });
    const pieces: string[] = [];
    for await (const chunk of stream) pieces.push(chunk.message.content);
    expect(pieces.length).toBeGreaterThan(5);
    expect(pieces.join("")).toBe('I\'ve added "buy milk" to your notes.');
  });

  it("list: qwen2.5:7b with its recorded size, digest and details", async () => {
    const { models } = await ollama.list();
    expect(models.map((m) => m.name)).toEqual(["qwen2.5:7b"]);
    expect(models[0]!.digest).toBe(QWEN25_DIGEST);
    expect(models[0]!.details).toMatchObject({ family: "qwen2", parameter_size: "7.6B", quantization_level: "Q4_K_M" });
  });

  it("show: the real template and system text, capabilities, and that it is simulated", async () => {
    const res = await ollama.show({ model: "qwen2.5:7b" });
    expect(res.template).toBe(QWEN25_TEMPLATE);
    expect(res.system).toBe(QWEN25_SYSTEM);
    expect(res.capabilities).toEqual(["completion", "tools"]);
    expect((res.model_info as unknown as Record<string, unknown>)["qwen2.context_length"]).toBe(32768);
    expect((res as unknown as { hopscope: { simulated: boolean } }).hopscope.simulated).toBe(true);
  });

  it("generate: a reply to a prompt, with context", async () => {
    const res = await ollama.generate({ model: "qwen2.5:7b", prompt: "Hello", stream: false });
    expect(res.response!.length).toBeGreaterThan(0);
    expect(res.response).not.toMatch(/qwen/i);
    expect(res.context?.length).toBeGreaterThan(res.prompt_eval_count);
  });

  it("generate raw: the rendered chat prompt continues with the raw <tool_call> text", async () => {
    const { _debug_info } = await (
      await fetch(`${sim.url}/api/chat`, {
        method: "POST",
        body: JSON.stringify({ model: "qwen2.5:7b", messages: ask, tools: NOTES_TOOLS, _debug_render_only: true }),
      })
    ).json();
    const res = await ollama.generate({
      model: "qwen2.5:7b",
      prompt: _debug_info.rendered_template,
      raw: true,
      stream: false,
    });
    expect(res.response).toBe('<tool_call>\n{"name": "append", "arguments": {"content": "buy milk"}}\n</tool_call>');
    expect(res.context).toBeUndefined();
  });

  it("version: the configured Ollama version", async () => {
    expect((await ollama.version()).version).toBe(DEFAULT_OLLAMA_VERSION);
  });

  it("ps: the model is loaded after a request, with an expiry", async () => {
    const { models } = await ollama.ps();
    expect(models[0]?.name).toBe("qwen2.5:7b");
    expect(new Date(models[0]!.expires_at).getTime()).toBeGreaterThan(Date.now());
  });

  it("an unknown model is the client's ResponseError with Ollama's 404 message", async () => {
    await expect(ollama.chat({ model: "llama3:8b", messages: ask })).rejects.toMatchObject({
      status_code: 404,
      error: "model 'llama3:8b' not found",
    });
  });
});
