/**
 * The stand-in in a real agent's seat: request bodies shaped like Claude Code's, Codex's, opencode's and Qwen
 * Code's, sent through the official clients (`@anthropic-ai/sdk`, `openai`, `ollama`) in each dialect, streamed
 * and not. Each time the stand-in finds the notes tool under the agent's name for it, calls it by exactly
 * that name with {content: "buy milk"}, and after the tool result answers in words. The context window is
 * the README recipe's (OLLAMA_CONTEXT_LENGTH=32768), so nothing is cut; ./context-window.test.ts covers cuts.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import Anthropic from "@anthropic-ai/sdk";
import OpenAI from "openai";
import { Ollama } from "ollama";
import { renderChat } from "@hopscope/shared/prompt/render";
import type { RunningServer } from "../src/server";
import {
  QUESTION,
  chatAgentRequest,
  claudeCodeAfterTool,
  claudeCodeRequest,
  codexRequest,
  notesTools,
} from "./agent-requests";
import { startSim } from "./helpers";

let sim: RunningServer;
let anthropic: Anthropic;
let openai: OpenAI;
let ollama: Ollama;

beforeAll(async () => {
  sim = await startSim({ contextLength: 32768 });
  anthropic = new Anthropic({ baseURL: sim.url, apiKey: "ollama", maxRetries: 0 });
  openai = new OpenAI({ baseURL: `${sim.url}/v1`, apiKey: "ollama", maxRetries: 0 });
  ollama = new Ollama({ host: sim.url });
});
afterAll(() => sim.close());

const ADDED = 'I\'ve added "buy milk" to your notes.';
const BUY_MILK = { content: "buy milk" };

describe.each([false, true])("Claude Code → /v1/messages (stream: %s)", (stream) => {
  /** The SDK's message, streamed through its event accumulator or whole. */
  async function send(body: Record<string, unknown>): Promise<Anthropic.Message> {
    if (stream) return anthropic.messages.stream(body as never).finalMessage();
    // Claude Code's max_tokens makes the SDK insist on streaming unless a timeout is given.
    return (await anthropic.messages.create(body as never, { timeout: 60_000 })) as Anthropic.Message;
  }

  it("adaptive thinking with effort high is relaxed, not refused; the call is mcp__notes__append", async () => {
    const msg = await send(claudeCodeRequest(stream));
    const use = msg.content.find((b) => b.type === "tool_use");
    expect(use && use.type === "tool_use" && [use.name, use.input]).toEqual(["mcp__notes__append", BUY_MILK]);
    expect(msg.stop_reason).toBe("tool_use");
    expect(msg.content.some((b) => b.type === "thinking")).toBe(false);
  });

  it("after the tool result (next to an injected reminder) it answers in words", async () => {
    const msg = await send(claudeCodeAfterTool(stream, "toolu_01", "Success"));
    expect(msg.content.map((b) => (b.type === "text" ? b.text : b.type)).join("")).toBe(ADDED);
    expect(msg.stop_reason).toBe("end_turn");
  });
});

describe.each([false, true])("Codex → /v1/responses (stream: %s)", (stream) => {
  async function send(body: Record<string, unknown>): Promise<OpenAI.Responses.Response> {
    const b = { ...body, stream };
    if (!stream) return (await openai.responses.create(b as never)) as OpenAI.Responses.Response;
    let done: OpenAI.Responses.Response | undefined;
    const events = await openai.responses.create({ ...(b as object), stream: true } as never);
    for await (const e of events as unknown as AsyncIterable<OpenAI.Responses.ResponseStreamEvent>)
      if (e.type === "response.completed") done = e.response;
    if (!done) throw new Error("no response.completed event");
    return done;
  }

  it("the namespace's member, expanded by Ollama to mcp__notes.append, is called by that name", async () => {
    const res = await send(codexRequest());
    const call = res.output.find((o) => o.type === "function_call");
    expect(call && call.type === "function_call" && [call.name, JSON.parse(call.arguments)]).toEqual([
      "mcp__notes.append",
      BUY_MILK,
    ]);
  });

  it("after function_call_output it answers in words", async () => {
    const res = await send(
      codexRequest([
        { type: "function_call", call_id: "call_1", name: "mcp__notes.append", arguments: '{"content":"buy milk"}' },
        { type: "function_call_output", call_id: "call_1", output: "Success" },
      ]),
    );
    expect(res.output.some((o) => o.type === "function_call")).toBe(false);
    const text = res.output.flatMap((o) => (o.type === "message" ? o.content : []));
    expect(text.map((c) => (c.type === "output_text" ? c.text : c.type)).join("")).toBe(ADDED);
  });
});

describe.each([
  ["opencode", "notes_append"],
  ["qwen-code", "mcp__notes__append"],
] as const)("%s → /v1/chat/completions", (agent, name) => {
  it.each([false, true])(`calls ${name}, then answers after the tool message (stream: %s)`, async (stream) => {
    const first = chatAgentRequest(agent);
    const call = stream
      ? (await openai.chat.completions.stream({ ...first, stream: true } as never).finalChatCompletion()).choices[0]!
          .message.tool_calls![0]!
      : (await openai.chat.completions.create({ ...first, stream: false } as never)).choices[0]!.message
          .tool_calls![0]!;
    if (call.type !== "function") throw new Error("not a function call");
    expect([call.function.name, JSON.parse(call.function.arguments)]).toEqual([name, BUY_MILK]);
    const after = chatAgentRequest(agent, [
      { role: "assistant", content: null, tool_calls: [call] },
      { role: "tool", tool_call_id: call.id, content: "Success" },
    ]);
    const answer = stream
      ? await openai.chat.completions.stream({ ...after, stream: true } as never).finalChatCompletion()
      : await openai.chat.completions.create({ ...after, stream: false } as never);
    expect(answer.choices[0]!.message.content).toBe(ADDED);
  });
});

describe("native /api/chat and /api/generate (ollama client), `<server>__<tool>` names", () => {
  const tools = notesTools((t) => `notes__${t}`).map((s) => ({ type: "function", function: s }));
  const messages = [
    { role: "system", content: "You are a helpful assistant with a notes server." },
    { role: "user", content: `<environment_context>\n  <cwd>/tmp</cwd>\n</environment_context>\n${QUESTION}` },
  ];

  it.each([false, true])("chat: notes__append, then words (stream: %s)", async (stream) => {
    const run = async (msgs: unknown[]) => {
      const req = { model: "qwen2.5:7b", messages: msgs as never, tools: tools as never };
      if (!stream) return (await ollama.chat({ ...req, stream: false })).message;
      let content = "";
      const calls = [];
      for await (const c of await ollama.chat({ ...req, stream: true })) {
        content += c.message.content;
        calls.push(...(c.message.tool_calls ?? []));
      }
      return { content, tool_calls: calls };
    };
    const first = await run(messages);
    expect(first.tool_calls?.map((c) => [c.function.name, c.function.arguments])).toEqual([
      ["notes__append", BUY_MILK],
    ]);
    const second = await run([
      ...messages,
      { role: "assistant", content: "", tool_calls: first.tool_calls },
      { role: "tool", content: "Success", tool_name: "notes__append" },
    ]);
    expect([second.content, second.tool_calls ?? []]).toEqual([ADDED, []]);
  });

  it("raw generate of the rendered Claude-style prompt calls mcp__notes__append, then answers", async () => {
    const named = notesTools((t) => `mcp__notes__${t}`).map((s) => ({ type: "function", function: s }));
    const ask = [{ role: "user", content: `<system-reminder>\nctx\n</system-reminder>\n${QUESTION}` }];
    const prompt = renderChat({ model: "qwen2.5:7b", messages: ask, tools: named } as never).text;
    const res = await ollama.generate({ model: "qwen2.5:7b", prompt, raw: true, stream: false });
    expect(res.response).toBe(
      '<tool_call>\n{"name": "mcp__notes__append", "arguments": {"content": "buy milk"}}\n</tool_call>',
    );
    const after = renderChat({
      model: "qwen2.5:7b",
      tools: named,
      messages: [
        ...ask,
        {
          role: "assistant",
          content: "",
          tool_calls: [{ function: { name: "mcp__notes__append", arguments: BUY_MILK } }],
        },
        { role: "tool", content: "Success" },
      ],
    } as never).text;
    const words = await ollama.generate({ model: "qwen2.5:7b", prompt: after, raw: true, stream: true });
    let text = "";
    for await (const c of words) text += c.response;
    expect(text).toBe(ADDED);
  });
});
