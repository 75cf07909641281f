/**
 * The context window as Ollama fills it: the default (4096 with no GPU), OLLAMA_CONTEXT_LENGTH, a request's
 * num_ctx; chatPrompt's message-level truncation (server/prompt.go), including a system message sent last;
 * the runner's token-level cut of a prompt that still does not fit (llm/llama_server.go, and the older
 * runners'); and what the model then decides from what is left.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { renderChat } from "@hopscope/shared/prompt/render";
import { loadQwenTokenizer, type QwenTokenizer } from "@hopscope/shared/tokens/qwen";
import type { RunningServer } from "../src/server";
import { QUESTION, chatAgentRequest, claudeCodeRequest } from "./agent-requests";
import { NOTES_TOOLS, post, startSim } from "./helpers";

let tokenizer: QwenTokenizer;
const sims: RunningServer[] = [];
async function sim(overrides: Parameters<typeof startSim>[0] = {}): Promise<RunningServer> {
  const s = await startSim(overrides);
  sims.push(s);
  return s;
}
beforeAll(async () => {
  tokenizer = await loadQwenTokenizer("0.32.15");
});
afterAll(async () => {
  await Promise.all(sims.map((s) => s.close()));
});

const chat = async (s: RunningServer, body: Record<string, unknown>) => {
  const res = await post(`${s.url}/api/chat`, { model: "qwen2.5:7b", stream: false, ...body });
  return { status: res.status, body: JSON.parse(res.text) as Record<string, any> };
};

describe("chatPrompt's truncation (server/prompt.go)", () => {
  const A = { role: "system", content: "You are an agent. Follow the rules." };
  const Q = { role: "user", content: QUESTION };
  const B = { role: "system", content: "Reminder: the notes server is connected." };

  it("a system message sent after the question: the question is dropped, both system messages kept", async () => {
    const s = await sim();
    const kept = renderChat({ model: "qwen2.5:7b", messages: [A, B], tools: NOTES_TOOLS } as never).text;
    const whole = renderChat({ model: "qwen2.5:7b", messages: [A, Q, B], tools: NOTES_TOOLS } as never).text;
    const numCtx = tokenizer.count(kept) + 2;
    expect(tokenizer.count(whole)).toBeGreaterThan(numCtx);
    const req = { messages: [A, Q, B], tools: NOTES_TOOLS, options: { num_ctx: numCtx } };
    // i = 1 renders [A] + [Q, B], the same as i = 0; i = 2 is the last message: [A] + [B], whatever its size.
    const render = await chat(s, { ...req, _debug_render_only: true });
    expect(render.body._debug_info.rendered_template).toBe(kept);
    const { body } = await chat(s, req);
    expect(body.prompt_eval_count).toBe(tokenizer.count(kept));
    // The model never saw the question: no call, and the answer asks what to do.
    expect(body.message.tool_calls).toBeUndefined();
    expect(body.message.content).toBe(
      "I can read, add to, change, overwrite or clear your notes. What would you like me to do?",
    );
  });

  it("with the system message first and the question last, the question survives any cut", async () => {
    const s = await sim();
    const kept = renderChat({ model: "qwen2.5:7b", messages: [A, B, Q], tools: NOTES_TOOLS } as never).text;
    const { body } = await chat(s, {
      messages: [A, { role: "user", content: "Hello" }, { role: "assistant", content: "Hi." }, B, Q],
      tools: NOTES_TOOLS,
      options: { num_ctx: tokenizer.count(kept) + 1 },
    });
    expect(body.prompt_eval_count).toBe(tokenizer.count(kept));
    expect(body.message.tool_calls[0].function).toMatchObject({ name: "append", arguments: { content: "buy milk" } });
  });
});

describe("the window's size: default, OLLAMA_CONTEXT_LENGTH, num_ctx", () => {
  // opencode's first request: ~6,000 tokens in two messages, so chatPrompt keeps both and the runner cuts.
  const opencode = { ...chatAgentRequest("opencode"), stream: false };
  const v1 = async (s: RunningServer, body: Record<string, unknown>) =>
    JSON.parse((await post(`${s.url}/v1/chat/completions`, body)).text) as Record<string, any>;

  it("no GPU, no setting: 4096, and the llama-server runner keeps 4 + 2046 tokens (about half the window)", async () => {
    const res = await v1(await sim(), opencode);
    expect(res.usage.prompt_tokens).toBe(4 + 2046);
  });

  it("OLLAMA_CONTEXT_LENGTH=8192 fits it whole; a request's num_ctx still wins over it", async () => {
    const s = await sim({ contextLength: 8192 });
    const whole = await v1(s, opencode);
    expect(whole.usage.prompt_tokens).toBeGreaterThan(5000);
    expect(whole.choices[0].message.tool_calls[0].function.name).toBe("notes_append");
    const qwenCode = chatAgentRequest("qwen-code");
    const native = await chat(s, { messages: qwenCode.messages, tools: qwenCode.tools, options: { num_ctx: 4096 } });
    expect(native.body.prompt_eval_count).toBe(4 + 2046);
  });

  it("before 0.30 (Ollama's own runners) the cut keeps 4 + num_ctx − 4 tokens; before 0.7 the default was 2048", async () => {
    expect((await v1(await sim({ ollamaVersion: "0.13.5" }), opencode)).usage.prompt_tokens).toBe(4096);
    expect((await v1(await sim({ ollamaVersion: "0.6.8" }), opencode)).usage.prompt_tokens).toBe(2048);
  });

  it("a num_ctx above the trained 32768 is lowered to it (optionsForPrompt)", async () => {
    const s = await sim();
    const long = "lorem ".repeat(40_000);
    const { body } = await chat(s, { messages: [{ role: "user", content: long }], options: { num_ctx: 100_000 } });
    expect(body.prompt_eval_count).toBe(32768 - Math.max(Math.floor((32768 - 4) / 2), 1));
  });

  it("`shift: false` refuses a prompt that does not fit, with Ollama's message; `truncate: false` too", async () => {
    const s = await sim();
    const messages = [{ role: "user", content: "note ".repeat(5000) }];
    const shift = await chat(s, { messages, shift: false });
    expect([shift.status, shift.body.error]).toEqual([
      400,
      "the prompt is longer than the context length currently available to the model; shorten the prompt, adjust the context length in settings, or use a model with a longer context length",
    ]);
    const truncate = await chat(s, { messages, truncate: false });
    expect([truncate.status, truncate.body.error]).toEqual([400, "the input length exceeds the context length"]);
  });

  it("Claude Code at the default window: the kept tail still holds the MCP tools and the question, so it calls", async () => {
    const s = await sim();
    const res = await post(`${s.url}/v1/messages`, claudeCodeRequest(false));
    const body = JSON.parse(res.text);
    expect(body.usage.input_tokens).toBe(4 + 2046);
    expect(body.content[0]).toMatchObject({
      type: "tool_use",
      name: "mcp__notes__append",
      input: { content: "buy milk" },
    });
  });

  it("a tail that has lost the notes tools: no call, and the answer says the tool list was cut", async () => {
    const s = await sim();
    const req = chatAgentRequest("opencode");
    const tools = req.tools as Array<{ function: { name: string } }>;
    // The notes tools first, the agent's own after them: the cut keeps only the end of the list.
    const reordered = [
      ...tools.filter((t) => t.function.name.startsWith("notes_")),
      ...tools.filter((t) => !t.function.name.startsWith("notes_")),
    ];
    const res = await v1(s, { ...req, tools: reordered, stream: false });
    expect(res.choices[0].message.tool_calls).toBeUndefined();
    expect(res.choices[0].message.content).toMatch(
      /^I can't add "buy milk" to your notes: only the end of the tool list reached me \(\d+ of 18 tools; the prompt was cut to fit the context window\), and none of those does that\.$/,
    );
  });
});
