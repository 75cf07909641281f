/**
 * Issue 13's "done when", end to end: an agent written with each official client (the `ollama` npm client as the
 * native reference, `openai` on /v1/chat/completions and on the Responses API, `@anthropic-ai/sdk` on
 * /v1/messages) runs "Add buy milk to my notes" through the model tap against the stand-in, with its tools
 * listed and called on the real notes MCP server through the MCP tap (the official MCP client, v2). Nothing sends
 * a `traceparent`: each conversation must still be ONE trace (model turn, tools/call, tool-result turn), and what
 * the model saw on each turn is byte for byte what it saw for the native client.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import Anthropic from "@anthropic-ai/sdk";
import OpenAI from "openai";
import { Ollama, type Message, type Tool } from "ollama";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { TraceListSchema } from "@hopscope/shared/trace/api";
import { TraceSchema, type Trace } from "@hopscope/shared/trace/schemas";
import { ExchangeViewsSchema, type ExchangeViews, fullTokens } from "@hopscope/shared/trace/views";
import { DEFAULT_OLLAMA_VERSION, renderChat } from "@hopscope/shared/prompt/render";
import { startRecorderStack, type RecorderStack } from "./support/recorder-stack";

const ASK = "Add buy milk to my notes";
const MODEL = "qwen2.5:7b";
let stack: RecorderStack;
let mcp: Client;
let mcpTools: { name: string; description: string; parameters: Record<string, unknown> }[];

beforeAll(async () => {
  // The stand-in imitates today's Ollama (the default family): every dialect endpoint is served.
  stack = await startRecorderStack();
  mcp = new Client(
    { name: "dialect-agent", version: "1.0.0" },
    { versionNegotiation: { mode: { pin: "2026-07-28" } } },
  );
  await mcp.connect(new StreamableHTTPClientTransport(new URL(`${stack.tapUrls.mcp}/mcp`)));
  mcpTools = (await mcp.listTools()).tools.map((t) => ({
    name: t.name,
    description: t.description ?? "",
    parameters: t.inputSchema as Record<string, unknown>,
  }));
});
afterAll(async () => {
  await mcp?.close();
  await stack?.close();
});

/** Runs one tool on the real MCP server, as an agent does: the text of its result. */
async function callTool(name: string, args: Record<string, unknown>): Promise<string> {
  const result = await mcp.callTool({ name, arguments: args });
  const first = (result.content as { type: string; text?: string }[])[0];
  return first?.type === "text" ? (first.text ?? "") : JSON.stringify(result.content);
}

/** An agent's run: the final answer, and the tool calls it made (name, arguments) in order. */
interface Run {
  answer: string;
  calls: [string, unknown][];
}

async function nativeAgent(): Promise<Run> {
  const ollama = new Ollama({ host: stack.tapUrls.model });
  const tools: Tool[] = mcpTools.map((t) => ({
    type: "function",
    function: { name: t.name, description: t.description, parameters: t.parameters as Tool["function"]["parameters"] },
  }));
  const messages: Message[] = [{ role: "user", content: ASK }];
  const calls: Run["calls"] = [];
  for (let step = 0; step < 4; step++) {
    const res = await ollama.chat({ model: MODEL, messages, tools, stream: false });
    messages.push(res.message);
    if (!res.message.tool_calls?.length) return { answer: res.message.content, calls };
    for (const c of res.message.tool_calls) {
      calls.push([c.function.name, c.function.arguments]);
      messages.push({
        role: "tool",
        content: await callTool(c.function.name, c.function.arguments),
        tool_name: c.function.name,
      });
    }
  }
  throw new Error("the native agent did not finish in 4 steps");
}

async function openaiChatAgent(stream: boolean): Promise<Run> {
  const openai = new OpenAI({ baseURL: `${stack.tapUrls.model}/v1`, apiKey: "ollama", maxRetries: 0 });
  const tools: OpenAI.Chat.Completions.ChatCompletionTool[] = mcpTools.map((t) => ({ type: "function", function: t }));
  const messages: OpenAI.Chat.Completions.ChatCompletionMessageParam[] = [{ role: "user", content: ASK }];
  const calls: Run["calls"] = [];
  for (let step = 0; step < 4; step++) {
    // Streaming: the SDK's own stream reader assembles the turn from the SSE deltas.
    // (A stream carries usage only when asked: stream_options.include_usage, as Ollama's ChatWriter does.)
    const res = stream
      ? await openai.chat.completions
          .stream({ model: MODEL, messages, tools, stream_options: { include_usage: true } })
          .finalChatCompletion()
      : await openai.chat.completions.create({ model: MODEL, messages, tools });
    const message = res.choices[0]!.message;
    messages.push(message);
    if (!message.tool_calls?.length) return { answer: message.content ?? "", calls };
    for (const c of message.tool_calls) {
      if (c.type !== "function") throw new Error(`unexpected tool call type ${c.type}`);
      const args = JSON.parse(c.function.arguments) as Record<string, unknown>;
      calls.push([c.function.name, args]);
      messages.push({ role: "tool", tool_call_id: c.id, content: await callTool(c.function.name, args) });
    }
  }
  throw new Error("the openai agent did not finish in 4 steps");
}

async function responsesAgent(stream: boolean): Promise<Run> {
  const openai = new OpenAI({ baseURL: `${stack.tapUrls.model}/v1`, apiKey: "ollama", maxRetries: 0 });
  const tools: OpenAI.Responses.FunctionTool[] = mcpTools.map((t) => ({ type: "function", ...t, strict: false }));
  const input: OpenAI.Responses.ResponseInputItem[] = [{ role: "user", content: [{ type: "input_text", text: ASK }] }];
  const calls: Run["calls"] = [];
  for (let step = 0; step < 4; step++) {
    const res: OpenAI.Responses.Response = stream
      ? await openai.responses.stream({ model: MODEL, input, tools }).finalResponse()
      : await openai.responses.create({ model: MODEL, input, tools });
    const fnCalls = res.output.filter(
      (o): o is OpenAI.Responses.ResponseFunctionToolCall => o.type === "function_call",
    );
    // From the output items (the SDK adds `output_text` to create()'s answer only, not to a stream's final response).
    const text = res.output
      .flatMap((o) => (o.type === "message" ? o.content : []))
      .map((c) => (c.type === "output_text" ? c.text : ""))
      .join("");
    if (fnCalls.length === 0) return { answer: text, calls };
    // The stateless way (Ollama keeps no responses): the previous output items go back in, then each result.
    input.push(...(res.output as OpenAI.Responses.ResponseInputItem[]));
    for (const c of fnCalls) {
      const args = JSON.parse(c.arguments) as Record<string, unknown>;
      calls.push([c.name, args]);
      input.push({ type: "function_call_output", call_id: c.call_id, output: await callTool(c.name, args) });
    }
  }
  throw new Error("the responses agent did not finish in 4 steps");
}

async function anthropicAgent(stream: boolean): Promise<Run> {
  const anthropic = new Anthropic({ baseURL: stack.tapUrls.model, apiKey: "ollama", maxRetries: 0 });
  const tools: Anthropic.Tool[] = mcpTools.map((t) => ({
    name: t.name,
    description: t.description,
    input_schema: t.parameters as Anthropic.Tool.InputSchema,
  }));
  const messages: Anthropic.MessageParam[] = [{ role: "user", content: ASK }];
  const calls: Run["calls"] = [];
  for (let step = 0; step < 4; step++) {
    const params = { model: MODEL, max_tokens: 1024, messages, tools };
    const res = stream
      ? await anthropic.messages.stream(params).finalMessage()
      : await anthropic.messages.create(params);
    messages.push({ role: "assistant", content: res.content });
    const uses = res.content.filter((b) => b.type === "tool_use");
    if (uses.length === 0) return { answer: res.content.map((b) => (b.type === "text" ? b.text : "")).join(""), calls };
    const results: Anthropic.ToolResultBlockParam[] = [];
    for (const u of uses) {
      calls.push([u.name, u.input]);
      results.push({
        type: "tool_result",
        tool_use_id: u.id,
        content: await callTool(u.name, u.input as Record<string, unknown>),
      });
    }
    messages.push({ role: "user", content: results });
  }
  throw new Error("the anthropic agent did not finish in 4 steps");
}

/** The traces holding the model exchanges on `path` that started at `since` or later, once `turns` of them are stored. */
async function conversationTraces(path: string, turns: number, since: number): Promise<Trace[]> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const list = TraceListSchema.parse(JSON.parse(await stack.api("/api/traces?limit=100")));
    const traces: Trace[] = [];
    let seen = 0;
    for (const s of list.traces) {
      const trace = TraceSchema.parse(JSON.parse(await stack.api(`/api/traces/${s.id}`)));
      const here = trace.exchanges.filter(
        (e) =>
          e.tap === "model" &&
          new URL(e.url, "http://x").pathname === path &&
          e.state === "complete" &&
          e.timings.start >= since - 1,
      );
      if (here.length > 0) traces.push(trace);
      seen += here.length;
    }
    if (seen >= turns && traces.every((t) => t.exchanges.every((e) => e.state === "complete"))) return traces;
    if (Date.now() > deadline) throw new Error(`expected ${turns} stored ${path} exchanges, saw ${seen}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const views = async (id: number): Promise<ExchangeViews> =>
  ExchangeViewsSchema.parse(JSON.parse(await stack.api(`/api/exchanges/${id}/views`)));

/** What each model turn of the trace showed as "what the model saw" and "what the model wrote". */
async function turnViews(trace: Trace): Promise<ExchangeViews[]> {
  return Promise.all(trace.exchanges.filter((e) => e.tap === "model").map((e) => views(e.id)));
}

/** The native request Ollama builds for turn `n` (0, 1) of this conversation, for the prompt it renders. */
function nativeTurn(n: number, tools: typeof mcpTools): Parameters<typeof renderChat>[0] {
  const messages: unknown[] = [{ role: "user", content: ASK }];
  if (n > 0)
    messages.push(
      {
        role: "assistant",
        content: "",
        tool_calls: [{ function: { name: "append", arguments: { content: "buy milk" } } }],
      },
      { role: "tool", content: "Success" },
    );
  return { model: MODEL, messages, tools: tools.map((t) => ({ type: "function", function: t })) } as Parameters<
    typeof renderChat
  >[0];
}

let native: { run: Run; trace: Trace; views: ExchangeViews[] };

describe("the article's question, asked by agents written with the official clients", () => {
  it("native reference (ollama npm client): one trace, model → tools/call → model, each prompt the native render", async () => {
    const since = Date.now();
    const run = await nativeAgent();
    expect(run.calls).toEqual([["append", { content: "buy milk" }]]);
    expect(run.answer.toLowerCase()).toContain("buy milk");
    const traces = await conversationTraces("/api/chat", 2, since);
    expect(traces).toHaveLength(1);
    const trace = traces[0]!;
    // The agent's MCP session, opened before the question, is in its run (the tools its request offers).
    expect(
      trace.exchanges
        .filter((e) => e.timings.start >= since - 1)
        .map(
          (e) =>
            `${e.tap} ${e.classification.kind === "mcp" ? e.classification.method : new URL(e.url, "http://x").pathname}`,
        ),
    ).toEqual(["model /api/chat", "mcp tools/call", "model /api/chat"]);
    const v = await turnViews(trace);
    expect(v.map((x) => x.prompt!.text)).toEqual(
      [0, 1].map((n) => renderChat(nativeTurn(n, mcpTools), { ollamaVersion: DEFAULT_OLLAMA_VERSION }).text),
    );
    native = { run, trace, views: v };
  });

  const dialects = [
    { name: "openai chat completions", path: "/v1/chat/completions", agent: openaiChatAgent, dialect: "openai-chat" },
    {
      name: "openai Responses API (function_call_output follow-up)",
      path: "/v1/responses",
      agent: responsesAgent,
      dialect: "openai-responses",
    },
    {
      name: "@anthropic-ai/sdk messages (tool_result follow-up)",
      path: "/v1/messages",
      agent: anthropicAgent,
      dialect: "anthropic",
    },
  ] as const;

  for (const d of dialects) {
    for (const stream of [false, true]) {
      it(`${d.name}${stream ? ", streamed" : ""}: one trace without traceparent, the notes changed, each turn's prompt exactly the native client's`, async () => {
        expect(native, "the native reference runs first").toBeDefined();
        const before = await stack.readNotes();
        const since = Date.now();
        const run = await d.agent(stream);
        expect(run.calls).toEqual([["append", { content: "buy milk" }]]);
        expect(run.answer.toLowerCase()).toContain("buy milk");
        expect((await stack.readNotes()).length).toBeGreaterThan(before.length);

        const traces = await conversationTraces(d.path, 2, since);
        expect(
          traces.map((t) => t.exchanges.length),
          "the conversation is one trace",
        ).toEqual([3]);
        const trace = traces[0]!;
        expect(
          trace.exchanges.map(
            (e) =>
              `${e.tap} ${e.classification.kind === "mcp" ? e.classification.method : new URL(e.url, "http://x").pathname}`,
          ),
        ).toEqual([`model ${d.path}`, "mcp tools/call", `model ${d.path}`]);
        expect(
          trace.exchanges
            .filter((e) => e.tap === "model")
            .map((e) => e.classification.kind === "model.chat" && e.classification.stream),
        ).toEqual([stream, stream]);
        expect(trace.groupedBy).not.toBe("traceparent");
        expect(trace.name).toBe(ASK);

        const v = await turnViews(trace);
        expect(v.map((x) => x.prompt!.text)).toEqual(native.views.map((x) => x.prompt!.text));
        expect(v.map((x) => x.prompt!.conversion?.dialect)).toEqual([d.dialect, d.dialect]);
        expect(v.map((x) => x.rawOutput!.text)).toEqual(native.views.map((x) => x.rawOutput!.text));
        expect(v[1]!.diff!.previousExchangeId).toBe(trace.exchanges[0]!.id);
        // Token counts from each dialect's usage (Anthropic's input_tokens, OpenAI's prompt_tokens) are the server's count.
        const counts = (t: Trace) =>
          t.exchanges
            .filter((e) => e.tap === "model")
            .map((e) => (e.classification.kind === "model.chat" ? e.classification.promptEvalCount : null));
        expect(counts(trace)).toEqual(counts(native.trace));
        expect(counts(trace)).toEqual(v.map((x) => x.prompt!.tokens!.count));
        // The token view and the diff with the previous turn, as for the native client.
        expect(v.map((x) => fullTokens(x.prompt!.tokens)!.ids)).toEqual(
          native.views.map((x) => fullTokens(x.prompt!.tokens)!.ids),
        );
        expect(v[1]!.diff!.commonPrefixLength).toBe(native.views[1]!.diff!.commonPrefixLength);
      });
    }
  }
});
