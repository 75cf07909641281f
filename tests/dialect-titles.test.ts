/**
 * A trace is named after the question in every dialect a model request can be written in (trace-title.ts):
 * raw requests through the model tap to the stand-in, with no agent request and no traceparent, so the model
 * request alone names its trace. A request line ("POST /v1/responses") is a name only when there is no question.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TraceListSchema } from "@hopscope/shared/trace/api";
import { TraceSchema } from "@hopscope/shared/trace/schemas";
import { startRecorderStack, type RecorderStack } from "./support/recorder-stack";

let stack: RecorderStack;
beforeAll(async () => {
  stack = await startRecorderStack();
});
afterAll(() => stack.close());

/** Sends one body to the model tap and returns the name of the trace its exchange landed in. */
async function nameOf(path: string, body: unknown): Promise<string> {
  const res = await fetch(`${stack.tapUrls.model}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  await res.text();
  const deadline = Date.now() + 10_000;
  for (;;) {
    const list = TraceListSchema.parse(JSON.parse(await stack.api("/api/traces?limit=1")));
    const newest = list.traces[0];
    if (newest) {
      const trace = TraceSchema.parse(JSON.parse(await stack.api(`/api/traces/${newest.id}`)));
      const sent = trace.exchanges.find(
        (e) => new URL(e.url, "http://x").pathname === path && e.state !== "pending" && e.state !== "streaming",
      );
      if (sent && seen.has(sent.id) === false) {
        seen.add(sent.id);
        return newest.name;
      }
    }
    if (Date.now() > deadline) throw new Error(`no new trace for ${path}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
const seen = new Set<number>();

const model = "qwen2.5:7b";

describe("trace names from the question, in every dialect", () => {
  it.each([
    [
      "/api/chat",
      {
        model,
        stream: false,
        messages: [
          { role: "system", content: "You keep notes." },
          { role: "user", content: "Native question one" },
        ],
      },
      "Native question one",
    ],
    [
      "/v1/chat/completions",
      { model, messages: [{ role: "user", content: [{ type: "text", text: "OpenAI question in parts" }] }] },
      "OpenAI question in parts",
    ],
    [
      "/v1/chat/completions",
      {
        model,
        messages: [
          { role: "system", content: "Be brief." },
          {
            role: "user",
            content: [
              { type: "text", text: "Add buy milk" },
              { type: "text", text: "to my notes" },
            ],
          },
        ],
      },
      "Add buy milk to my notes",
    ],
    ["/v1/responses", { model, input: "Responses question as a string" }, "Responses question as a string"],
    [
      "/v1/responses",
      {
        model,
        instructions: "Be brief.",
        input: [{ role: "user", content: [{ type: "input_text", text: "Responses question in input_text" }] }],
      },
      "Responses question in input_text",
    ],
    [
      "/v1/responses",
      { model, input: [{ type: "message", role: "user", content: "Responses message item" }] },
      "Responses message item",
    ],
    [
      "/v1/messages",
      {
        model,
        max_tokens: 64,
        system: [{ type: "text", text: "You keep notes." }],
        messages: [{ role: "user", content: [{ type: "text", text: "Anthropic question in blocks" }] }],
      },
      "Anthropic question in blocks",
    ],
    ["/api/generate", { model, stream: false, prompt: "Generate prompt question" }, "Generate prompt question"],
    ["/v1/completions", { model, prompt: "Completions prompt question" }, "Completions prompt question"],
    // raw: the client wrote the ChatML itself; the question is its last user turn, not the template text.
    [
      "/api/generate",
      {
        model,
        stream: false,
        raw: true,
        prompt:
          "<|im_start|>system\nYou keep notes.<|im_end|>\n<|im_start|>user\nRaw first question<|im_end|>\n<|im_start|>assistant\nOK.<|im_end|>\n<|im_start|>user\nRaw ChatML question<|im_end|>\n<|im_start|>assistant\n",
      },
      "Raw ChatML question",
    ],
    // A tool result goes back to Qwen as a user turn of <tool_response> blocks: not a question.
    [
      "/api/generate",
      {
        model,
        stream: false,
        raw: true,
        prompt:
          "<|im_start|>user\nAdd buy milk (raw)<|im_end|>\n<|im_start|>assistant\n<tool_call>\n{}\n</tool_call><|im_end|>\n<|im_start|>user\n<tool_response>\nok\n</tool_response><|im_end|>\n<|im_start|>assistant\n",
      },
      "Add buy milk (raw)",
    ],
    // Raw text that is not ChatML is its own question, cut as any prompt.
    ["/api/generate", { model, stream: false, raw: true, prompt: "Q: plain raw prompt\nA:" }, "Q: plain raw prompt A:"],
  ])("%s names its trace after the question (%#)", async (path, body, want) => {
    expect(await nameOf(path, body)).toBe(want);
  });

  it("a body Ollama refuses still gives its question when it has one; none falls back to the request line", async () => {
    // `max_tokens` missing: Ollama answers 400, the recorder still names the trace after the question.
    expect(await nameOf("/v1/messages", { model, messages: [{ role: "user", content: "Refused but asked" }] })).toBe(
      "Refused but asked",
    );
    // An unknown content-part type is refused; the string input is still the question.
    expect(await nameOf("/v1/responses", { model, input: "Plain input refused", tools: "not a list" })).toBe(
      "Plain input refused",
    );
    expect(await nameOf("/v1/responses", { model, input: [] })).toBe("POST /v1/responses");
  });
});
