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
  sims = { old: await startSim({ ollamaVersion: "0.2.0" }), responses: await startSim({ ollamaVersion: "0.13.5" }), now: await startSim({ ollamaVersion: "0.14.0" }) };
});
afterAll(() => Promise.all(Object.values(sims).map((s) => s.close())));

describe("endpoints by version", () => {
  it("each /v1 endpoint exists from the release that added it, gin's 404 before", async () => {
    const status = async (sim: RunningServer, path: string) => (await post(`${sim.url}${path}`, { model: "qwen2.5:7b", max_tokens: 5, messages: ask, input: "hi", prompt: "hi" })).status;
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
    expect(JSON.parse(missing.text)).toEqual({ error: { message: "model is required", type: "invalid_request_error", param: null, code: null } });
    const notList = await post(url("/v1/chat/completions"), { model: "qwen2.5:7b", messages: "hi" });
    expect(JSON.parse(notList.text).error.message).toBe("json: cannot unmarshal string into Go struct field ChatCompletionRequest.messages of type []openai.Message");
    const part = await post(url("/v1/chat/completions"), { model: "qwen2.5:7b", messages: [{ role: "user", content: [{ type: "video" }] }] });
    expect([part.status, JSON.parse(part.text).error.message]).toEqual([400, "invalid message format"]);
    const args = await post(url("/v1/chat/completions"), { model: "qwen2.5:7b", messages: [{ role: "assistant", tool_calls: [{ id: "a", type: "function", function: { name: "append", arguments: "content=milk" } }] }] });
    expect(JSON.parse(args.text).error.message).toBe("invalid tool call arguments");
    const unknownModel = await post(url("/v1/chat/completions"), { model: "llama9", messages: ask });
    expect([unknownModel.status, JSON.parse(unknownModel.text).error]).toEqual([404, { message: "model 'llama9' not found", type: "not_found_error", param: null, code: null }]);
    const badJson = await post(url("/v1/chat/completions"), "{nope");
    expect([badJson.status, JSON.parse(badJson.text).error.message]).toEqual([400, "invalid character 'n' looking for beginning of value"]);
  });

  it("Anthropic: the error envelope with a request id", async () => {
    const noId = await post(url("/v1/messages"), { model: "qwen2.5:7b", max_tokens: 10, messages: [{ role: "assistant", content: [{ type: "tool_use", name: "append", input: {} }] }] });
    expect(noId.status).toBe(400);
    const body = JSON.parse(noId.text);
    expect(body).toMatchObject({ type: "error", error: { type: "invalid_request_error", message: "tool_use block missing required 'id' field" } });
    expect(body.request_id).toMatch(/^req_[0-9a-f]{24}$/);
    const noModel = await post(url("/v1/messages"), { max_tokens: 10, messages: ask });
    expect(JSON.parse(noModel.text).error.message).toBe("model is required");
    const notFound = await post(url("/v1/messages"), { model: "llama9", max_tokens: 10, messages: ask });
    expect([notFound.status, JSON.parse(notFound.text).error.type]).toEqual([404, "not_found_error"]);
  });
});

describe("framing", () => {
  it("OpenAI SSE: data lines, HTML-safe Go JSON, one tool-call chunk, finish chunk, [DONE]", async () => {
    const res = await post(`${sims.now!.url}/v1/chat/completions`, { model: "qwen2.5:7b", messages: ask, tools: NOTES_TOOLS, stream: true });
    expect(res.headers.get("content-type")).toBe("text/event-stream");
    const events = res.text.split("\n\n").filter(Boolean);
    expect(events.every((e) => e.startsWith("data: "))).toBe(true);
    expect(events.at(-1)).toBe("data: [DONE]");
    const chunks = events.slice(0, -1).map((e) => JSON.parse(e.slice(6)));
    expect(chunks[0].choices[0].delta.role).toBe("assistant");
    expect(chunks[0].choices[0].delta.tool_calls[0].function).toEqual({ name: "append", arguments: '{"content":"buy milk"}' });
    expect(chunks.at(-1).choices[0]).toEqual({ index: 0, delta: {}, finish_reason: "tool_calls" });
    expect(new Set(chunks.map((c) => c.created)).size).toBe(1);
  });

  it("Anthropic SSE: named events", async () => {
    const res = await post(`${sims.now!.url}/v1/messages`, { model: "qwen2.5:7b", max_tokens: 100, messages: ask, stream: true });
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

describe("_debug_render_only through /v1/chat/completions", () => {
  it("answers the rendered prompt of the converted request, as Ollama's ChatWriter does", async () => {
    const res = await post(`${sims.now!.url}/v1/chat/completions`, { model: "qwen2.5:7b", messages: ask, tools: NOTES_TOOLS, _debug_render_only: true });
    const body = JSON.parse(res.text);
    expect(body.object).toBe("chat.completion");
    expect(body._debug_info.rendered_template).toContain("<|im_start|>user\nAdd buy milk to my notes<|im_end|>");
  });
});
