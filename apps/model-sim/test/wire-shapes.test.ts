/**
 * The bytes on the wire: field order as Ollama's Go structs marshal them, content types, the simulated
 * header on every response, and Ollama's status codes and error bodies.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SIMULATED_HEADER } from "@hopscope/shared/ollama/schemas";
import type { RunningServer } from "../src/server";
import { NOTES_TOOLS, post, startSim, user } from "./helpers";

let sim: RunningServer;
beforeAll(async () => {
  sim = await startSim();
});
afterAll(() => sim.close());

const keys = (text: string) => Object.keys(JSON.parse(text) as object);
const chat = (body: Record<string, unknown>, headers?: Record<string, string>) =>
  post(`${sim.url}/api/chat`, { model: "qwen2.5:7b", ...body }, headers);

describe("response shapes", () => {
  it("non-streamed chat: api.ChatResponse field order, Go escaping, gin's content type, no trailing newline", async () => {
    const res = await chat({ messages: [user("Add buy milk to my notes")], tools: NOTES_TOOLS, stream: false });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(res.text.endsWith("\n")).toBe(false);
    expect(keys(res.text)).toEqual([
      "model",
      "created_at",
      "message",
      "done",
      "done_reason",
      "total_duration",
      "load_duration",
      "prompt_eval_count",
      "prompt_eval_duration",
      "eval_count",
      "eval_duration",
    ]);
    const body = JSON.parse(res.text);
    expect(Object.keys(body.message)).toEqual(["role", "content", "tool_calls"]);
    expect(Object.keys(body.message.tool_calls[0])).toEqual(["id", "function"]);
    expect(body.message.tool_calls[0].id).toMatch(/^call_[a-z0-9]{8}$/);
    expect(Object.keys(body.message.tool_calls[0].function)).toEqual(["index", "name", "arguments"]);
    expect(body.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{1,9})?Z$/);
  });

  it("streamed chat: NDJSON lines, done:false chunks without metrics, the last one with them", async () => {
    const res = await chat({ messages: [user("What's in my notes?")], tools: NOTES_TOOLS });
    expect(res.headers.get("content-type")).toBe("application/x-ndjson");
    expect(res.text.endsWith("\n")).toBe(true);
    const lines = res.text.trimEnd().split("\n");
    expect(keys(lines[0]!)).toEqual(["model", "created_at", "message", "done"]);
    expect(JSON.parse(lines[0]!).message.tool_calls[0].function).toEqual({ index: 0, name: "read", arguments: {} });
    expect(keys(lines.at(-1)!)).toContain("eval_duration");
  });

  it("a plain reply containing < > & is written with Go's HTML-safe escapes", async () => {
    const res = await chat({
      messages: [
        user("Add <b>milk & eggs</b> to my notes"),
        {
          role: "assistant",
          content: "",
          tool_calls: [{ function: { name: "append", arguments: { content: "<b>milk & eggs</b>" } } }],
        },
        { role: "tool", content: "Success" },
      ],
      tools: NOTES_TOOLS,
      stream: false,
    });
    expect(res.text).toContain("\\u003cb\\u003emilk \\u0026 eggs\\u003c/b\\u003e");
    expect(JSON.parse(res.text).message.content).toBe('I\'ve added "<b>milk & eggs</b>" to your notes.');
  });

  it("every response carries x-hopscope-simulated: 1, errors and unknown routes included", async () => {
    const responses = await Promise.all([
      fetch(`${sim.url}/`),
      fetch(`${sim.url}/`, { method: "HEAD" }),
      fetch(`${sim.url}/api/tags`),
      fetch(`${sim.url}/api/version`),
      fetch(`${sim.url}/api/ps`),
      fetch(`${sim.url}/api/chat`, { method: "POST", body: "{" }),
      fetch(`${sim.url}/api/nope`),
      fetch(`${sim.url}/api/chat`, {
        method: "POST",
        body: JSON.stringify({ model: "qwen2.5:7b", messages: [user("hi")] }),
      }),
      fetch(`${sim.url}/api/generate`, {
        method: "POST",
        body: JSON.stringify({ model: "qwen2.5:7b", prompt: "hi", stream: false }),
      }),
    ]);
    for (const res of responses) expect(res.headers.get(SIMULATED_HEADER), res.url).toBe("1");
    expect(responses[7]!.headers.get("content-type")).toBe("application/x-ndjson");
    expect(await responses[0]!.text()).toMatch(/^Ollama is running \(simulated/);
    expect(responses[1]!.status).toBe(200);
    expect(responses[6]!.status).toBe(404);
  });

  it("/api/version and /api/show say it is simulated in an extra field", async () => {
    const version = await (await fetch(`${sim.url}/api/version`)).json();
    expect(Object.keys(version)).toEqual(["version", "hopscope"]);
    expect(version.hopscope.simulated).toBe(true);
    const show = await post(`${sim.url}/api/show`, { model: "qwen2.5:7b" });
    expect(keys(show.text)).toEqual([
      "license",
      "modelfile",
      "template",
      "system",
      "details",
      "model_info",
      "capabilities",
      "modified_at",
      "hopscope",
    ]);
  });

  it("/api/tags: api.ListModelResponse field order", async () => {
    const res = await fetch(`${sim.url}/api/tags`);
    const body = await res.json();
    expect(Object.keys(body.models[0])).toEqual(["name", "model", "modified_at", "size", "digest", "details"]);
    expect(Object.keys(body.models[0].details)).toEqual([
      "parent_model",
      "format",
      "family",
      "families",
      "parameter_size",
      "quantization_level",
    ]);
  });

  it("empty messages load the model (done_reason load); keep_alive 0 unloads it, and /api/ps empties", async () => {
    const load = JSON.parse((await chat({ messages: [] })).text);
    expect(load).toMatchObject({ message: { role: "assistant", content: "" }, done: true, done_reason: "load" });
    const unload = JSON.parse((await chat({ messages: [], keep_alive: 0 })).text);
    expect(unload.done_reason).toBe("unload");
    expect((await (await fetch(`${sim.url}/api/ps`)).json()).models).toEqual([]);
  });

  it("_debug_render_only: a zero message and the rendered template, nothing generated", async () => {
    const res = await chat({ messages: [user("hi")], _debug_render_only: true });
    expect(keys(res.text)).toEqual(["model", "created_at", "message", "done", "_debug_info"]);
    const body = JSON.parse(res.text);
    expect(body.message).toEqual({ role: "", content: "" });
    expect(body._debug_info.rendered_template).toMatch(
      /<\|im_start\|>user\nhi<\|im_end\|>\n<\|im_start\|>assistant\n$/,
    );
  });

  it("format json: the call comes back as JSON content, because the grammar forbids the <tool_call> tag", async () => {
    const res = JSON.parse(
      (await chat({ messages: [user("Add buy milk to my notes")], tools: NOTES_TOOLS, format: "json", stream: false }))
        .text,
    );
    expect(res.message.tool_calls).toBeUndefined();
    expect(JSON.parse(res.message.content)).toEqual({ name: "append", arguments: { content: "buy milk" } });
  });

  it("null fields are Go's zero values, not errors (content: null, tools: null)", async () => {
    const res = await chat({
      messages: [
        { role: "user", content: "What's in my notes?" },
        { role: "assistant", content: null, tool_calls: [{ function: { name: "read", arguments: {} } }] },
        { role: "tool", content: "buy milk" },
      ],
      tools: NOTES_TOOLS,
      options: null,
      stream: false,
    });
    expect(res.status, res.text).toBe(200);
    expect(JSON.parse(res.text).message.content).toBe("Here's what's in your notes:\n\nbuy milk");
  });

  it("options.num_predict cuts the output: done_reason length, eval_count = num_predict", async () => {
    const res = JSON.parse(
      (await chat({ messages: [user("hello")], options: { num_predict: 3, seed: 1, temperature: 0 }, stream: false }))
        .text,
    );
    expect(res.done_reason).toBe("length");
    expect(res.eval_count).toBe(3);
  });

  it("an older SIM_OLLAMA_VERSION drops tool-call ids and a zero index, as Ollama before 0.13 did", async () => {
    const old = await startSim({ ollamaVersion: "0.12.6" });
    try {
      const body = JSON.parse(
        (
          await post(`${old.url}/api/chat`, {
            model: "qwen2.5:7b",
            messages: [user("show my notes")],
            tools: NOTES_TOOLS,
            stream: false,
          })
        ).text,
      );
      expect(body.message.tool_calls).toEqual([{ function: { name: "read", arguments: {} } }]);
      expect((await (await fetch(`${old.url}/api/version`)).json()).version).toBe("0.12.6");
    } finally {
      await old.close();
    }
  });
});

describe("errors, as Ollama sends them", () => {
  const cases: [string, () => Promise<{ status: number; text: string }>, number, string][] = [
    ["unknown model", () => chat({ model: "llama3:8b", messages: [user("hi")] }), 404, "model 'llama3:8b' not found"],
    ["no model", () => post(`${sim.url}/api/chat`, { messages: [] }), 400, "model is required"],
    ["empty body", () => post(`${sim.url}/api/chat`, ""), 400, "missing request body"],
    ["truncated JSON", () => post(`${sim.url}/api/chat`, '{"model":'), 400, "unexpected EOF"],
    ["not JSON", () => post(`${sim.url}/api/chat`, "{x}"), 400, "invalid character 'x' looking for beginning of value"],
    [
      "wrong type",
      () => chat({ messages: [user("hi")], stream: "yes" }),
      400,
      "json: cannot unmarshal string into Go struct field ChatRequest.stream of type bool",
    ],
    [
      "arguments as a string",
      () =>
        chat({
          messages: [{ role: "assistant", content: "", tool_calls: [{ function: { name: "read", arguments: "{}" } }] }],
        }),
      400,
      "json: cannot unmarshal string into Go struct field ChatRequest.messages.tool_calls.function.arguments of type api.ToolCallFunctionArguments",
    ],
    ["think:true", () => chat({ messages: [user("hi")], think: true }), 400, '"qwen2.5:7b" does not support thinking'],
    [
      "bad keep_alive",
      () => chat({ messages: [user("hi")], keep_alive: "soon" }),
      400,
      'time: invalid duration "soon"',
    ],
    [
      "generate, unknown model",
      () => post(`${sim.url}/api/generate`, { model: "nope", prompt: "hi" }),
      404,
      "model 'nope' not found",
    ],
    [
      "generate raw with system",
      () => post(`${sim.url}/api/generate`, { model: "qwen2.5:7b", prompt: "hi", raw: true, system: "x" }),
      400,
      "raw mode does not support template, system, or context",
    ],
    ["show, unknown model", () => post(`${sim.url}/api/show`, { model: "nope" }), 404, "model 'nope' not found"],
    [
      "unknown lesson",
      () => chat({ messages: [user("hi")] }, { "x-hopscope-lesson": "nap" }),
      400,
      'x-hopscope-lesson header: unknown lesson "nap": use one of write-instead-of-append, missing-argument, unknown-tool, loop, slow, cut',
    ],
  ];
  it.each(cases)("%s → %d", async (_name, send, status, error) => {
    const res = await send();
    expect(res.status).toBe(status);
    expect(JSON.parse(res.text)).toEqual({ error });
  });
});
