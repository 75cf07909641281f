/**
 * The stand-in's `/v1` endpoints on the wire: gated by the Ollama version it imitates, errors in each dialect's
 * shape with Ollama's status, SSE framing, and the native answer converted by the shared layer.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningServer } from "../src/server";
import { NOTES_TOOLS, post, startSim } from "./helpers";

const ask = [{ role: "user", content: "Add buy milk to my notes" }];
let sims: Record<string, RunningServer> = {};

beforeAll(async () => {
  sims = {
    old: await startSim({ ollamaVersion: "0.2.0" }),
    responses: await startSim({ ollamaVersion: "0.13.5" }),
    now: await startSim({ ollamaVersion: "0.14.0" }),
  };
});
afterAll(() => Promise.all(Object.values(sims).map((s) => s.close())));

describe("endpoints by version", () => {
  it("each /v1 endpoint exists from the release that added it, gin's 404 before", async () => {
    const status = async (sim: RunningServer, path: string) =>
      (
        await post(`${sim.url}${path}`, {
          model: "qwen2.5:7b",
          max_tokens: 5,
          messages: ask,
          input: "hi",
          prompt: "hi",
        })
      ).status;
    expect(await status(sims.old!, "/v1/chat/completions")).toBe(200);
    expect(await status(sims.old!, "/v1/completions")).toBe(200);
    expect(await status(sims.old!, "/v1/responses")).toBe(404);
    expect(await status(sims.responses!, "/v1/responses")).toBe(200);
    expect(await status(sims.responses!, "/v1/messages")).toBe(404);
    expect(await status(sims.now!, "/v1/messages")).toBe(200);
    const gone = await post(`${sims.responses!.url}/v1/messages`, {});
    expect(gone.text).toBe("404 page not found");
  });
});

describe("errors in each dialect's shape", () => {
  const url = (p: string) => `${sims.now!.url}${p}`;

  it("OpenAI: missing model, messages not a list, unknown content part, non-JSON arguments", async () => {
    const missing = await post(url("/v1/chat/completions"), { messages: ask });
    expect(missing.status).toBe(400);
    expect(JSON.parse(missing.text)).toEqual({
      error: { message: "model is required", type: "invalid_request_error", param: null, code: null },
    });
    const notList = await post(url("/v1/chat/completions"), { model: "qwen2.5:7b", messages: "hi" });
    expect(JSON.parse(notList.text).error.message).toBe(
      "json: cannot unmarshal string into Go struct field ChatCompletionRequest.messages of type []openai.Message",
    );
    const part = await post(url("/v1/chat/completions"), {
      model: "qwen2.5:7b",
      messages: [{ role: "user", content: [{ type: "video" }] }],
    });
    expect([part.status, JSON.parse(part.text).error.message]).toEqual([400, "invalid message format"]);
    const args = await post(url("/v1/chat/completions"), {
      model: "qwen2.5:7b",
      messages: [
        {
          role: "assistant",
          tool_calls: [{ id: "a", type: "function", function: { name: "append", arguments: "content=milk" } }],
        },
      ],
    });
    expect(JSON.parse(args.text).error.message).toBe("invalid tool call arguments");
    const unknownModel = await post(url("/v1/chat/completions"), { model: "llama9", messages: ask });
    expect([unknownModel.status, JSON.parse(unknownModel.text).error]).toEqual([
      404,
      { message: "model 'llama9' not found", type: "not_found_error", param: null, code: null },
    ]);
    const badJson = await post(url("/v1/chat/completions"), "{nope");
    expect([badJson.status, JSON.parse(badJson.text).error.message]).toEqual([
      400,
      "invalid character 'n' looking for beginning of value",
    ]);
  });

  it("Anthropic: the error envelope with a request id", async () => {
    const noId = await post(url("/v1/messages"), {
      model: "qwen2.5:7b",
      max_tokens: 10,
      messages: [{ role: "assistant", content: [{ type: "tool_use", name: "append", input: {} }] }],
    });
    expect(noId.status).toBe(400);
    const body = JSON.parse(noId.text);
    expect(body).toMatchObject({
      type: "error",
      error: { type: "invalid_request_error", message: "tool_use block missing required 'id' field" },
    });
    expect(body.request_id).toMatch(/^req_[0-9a-f]{24}$/);
    const noModel = await post(url("/v1/messages"), { max_tokens: 10, messages: ask });
    expect(JSON.parse(noModel.text).error.message).toBe("model is required");
    const notFound = await post(url("/v1/messages"), { model: "llama9", max_tokens: 10, messages: ask });
    expect([notFound.status, JSON.parse(notFound.text).error.type]).toEqual([404, "not_found_error"]);
  });
});

describe("framing", () => {
  it("OpenAI SSE: data lines, HTML-safe Go JSON, one tool-call chunk, finish chunk, [DONE]", async () => {
    const res = await post(`${sims.now!.url}/v1/chat/completions`, {
      model: "qwen2.5:7b",
      messages: ask,
      tools: NOTES_TOOLS,
      stream: true,
    });
    expect(res.headers.get("content-type")).toBe("text/event-stream");
    const events = res.text.split("\n\n").filter(Boolean);
    expect(events.every((e) => e.startsWith("data: "))).toBe(true);
    expect(events.at(-1)).toBe("data: [DONE]");
    const chunks = events.slice(0, -1).map((e) => JSON.parse(e.slice(6)));
    expect(chunks[0].choices[0].delta.role).toBe("assistant");
    expect(chunks[0].choices[0].delta.tool_calls[0].function).toEqual({
      name: "append",
      arguments: '{"content":"buy milk"}',
    });
    expect(chunks.at(-1).choices[0]).toEqual({ index: 0, delta: {}, finish_reason: "tool_calls" });
    expect(new Set(chunks.map((c) => c.created)).size).toBe(1);
  });

  it("Anthropic SSE: named events", async () => {
    const res = await post(`${sims.now!.url}/v1/messages`, {
      model: "qwen2.5:7b",
      max_tokens: 100,
      messages: ask,
      stream: true,
    });
    const names = [...res.text.matchAll(/^event: (.+)$/gm)].map((m) => m[1]);
    expect(names[0]).toBe("message_start");
    expect(names.slice(-2)).toEqual(["message_delta", "message_stop"]);
    expect(res.headers.get("cache-control")).toBe("no-cache");
  });

  it("a whole body ends with the encoder's newline; /v1/completions answers text_completion", async () => {
    const res = await post(`${sims.now!.url}/v1/completions`, { model: "qwen2.5:7b", prompt: "Say hi" });
    expect(res.text.endsWith("}\n")).toBe(true);
    const body = JSON.parse(res.text);
    expect(body.object).toBe("text_completion");
    expect(body.id).toMatch(/^cmpl-\d+$/);
    expect(body.choices[0].text.length).toBeGreaterThan(0);
    expect(body.usage.prompt_tokens).toBeGreaterThan(0);
  });

  it("/v1/models/:model: the model, or the dialect's 404", async () => {
    const ok = await fetch(`${sims.now!.url}/v1/models/qwen2.5:7b`);
    expect(await ok.json()).toMatchObject({ id: "qwen2.5:7b", object: "model", owned_by: "library" });
    const missing = await fetch(`${sims.now!.url}/v1/models/llama9`);
    expect([missing.status, (await missing.json()).error.type]).toEqual([404, "not_found_error"]);
  });
});

describe("_debug_render_only on each endpoint, as the imitated Ollama answers it (shared/src/dialects/debug-render.ts)", () => {
  const debug = { model: "qwen2.5:7b", messages: ask, tools: NOTES_TOOLS, _debug_render_only: true };
  const nativeRender = async (sim: RunningServer) =>
    JSON.parse((await post(`${sim.url}/api/chat`, debug)).text)._debug_info.rendered_template as string;

  it("/v1/chat/completions: a chat.completion with an empty message and the handler's _debug_info (the native render)", async () => {
    const res = await post(`${sims.now!.url}/v1/chat/completions`, debug);
    const body = JSON.parse(res.text);
    expect(body.object).toBe("chat.completion");
    expect(body.choices).toEqual([{ index: 0, message: { role: "", content: "" }, finish_reason: null }]);
    expect(body._debug_info.rendered_template).toContain("<|im_start|>user\nAdd buy milk to my notes<|im_end|>");
    expect(body._debug_info.rendered_template).toBe(await nativeRender(sims.now!));
  });

  it("/v1/chat/completions streaming: the stream writer drops _debug_info; one role chunk, no [DONE] (the answer is not done)", async () => {
    const res = await post(`${sims.now!.url}/v1/chat/completions`, { ...debug, stream: true });
    expect(res.headers.get("content-type")).toBe("text/event-stream");
    const events = res.text.split("\n\n").filter(Boolean);
    expect(events).toHaveLength(1);
    expect(JSON.parse(events[0]!.slice(6)).choices).toEqual([
      { index: 0, delta: { role: "assistant", content: "" }, finish_reason: null },
    ]);
    expect(res.text).not.toContain("_debug_info");
  });

  it("/v1/completions: the model does not run, but the text_completion has no _debug_info", async () => {
    const body = JSON.parse(
      (
        await post(`${sims.now!.url}/v1/completions`, {
          model: "qwen2.5:7b",
          prompt: "Say hi",
          _debug_render_only: true,
        })
      ).text,
    );
    expect(body.object).toBe("text_completion");
    expect(body.choices[0]).toMatchObject({ text: "", finish_reason: null });
    expect(body).not.toHaveProperty("_debug_info");
  });

  it("/v1/responses and /v1/messages drop the field: the model runs and calls the tool", async () => {
    const tools = NOTES_TOOLS.map((t) => ({ type: "function", ...t.function }));
    const responses = JSON.parse(
      (
        await post(`${sims.now!.url}/v1/responses`, {
          model: "qwen2.5:7b",
          input: ask,
          tools,
          _debug_render_only: true,
        })
      ).text,
    );
    expect(responses.output.map((o: { type: string }) => o.type)).toEqual(["function_call"]);
    const anthropicTools = NOTES_TOOLS.map((t) => ({
      name: t.function.name,
      description: t.function.description,
      input_schema: t.function.parameters,
    }));
    const messages = JSON.parse(
      (
        await post(`${sims.now!.url}/v1/messages`, {
          model: "qwen2.5:7b",
          max_tokens: 100,
          messages: ask,
          tools: anthropicTools,
          _debug_render_only: true,
        })
      ).text,
    );
    expect(messages.content.map((b: { type: string }) => b.type)).toEqual(["tool_use"]);
    expect(JSON.stringify([responses, messages])).not.toContain("_debug_info");
  });

  it("by version: the native handlers render from 0.11.5, the OpenAI layer carries the field from 0.12.0", async () => {
    const [v115, v120] = [await startSim({ ollamaVersion: "0.11.5" }), await startSim({ ollamaVersion: "0.12.0" })];
    try {
      expect(await nativeRender(v115)).toContain("<|im_start|>assistant\n");
      const dropped = JSON.parse((await post(`${v115.url}/v1/chat/completions`, debug)).text);
      expect(dropped).not.toHaveProperty("_debug_info");
      expect(dropped.choices[0].message.tool_calls[0].function.name).toBe("append");
      const carried = JSON.parse((await post(`${v120.url}/v1/chat/completions`, debug)).text);
      expect(carried._debug_info.rendered_template).toBe(await nativeRender(v120));
      const old = JSON.parse((await post(`${sims.old!.url}/api/chat`, { ...debug, stream: false })).text);
      expect(old).not.toHaveProperty("_debug_info");
      expect(old.done).toBe(true);
    } finally {
      await Promise.all([v115.close(), v120.close()]);
    }
  });
});
