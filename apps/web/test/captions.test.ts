/**
 * Captions by state: what a caption says must be true at the moment on screen — waiting (with the
 * seconds ticking), text arriving, a tool call being written (never "no tool call"), done (with the
 * model server's timings), cut (never "done").
 */
import { describe, expect, it } from "vitest";
import type { ExchangeSummary } from "@hopscope/shared/trace/schemas";
import { captionFor } from "../src/models/captions";
import type { Hop } from "../src/models/hops";
import { inToolCall, streamState } from "../src/models/stream-state";
import { exchange } from "./fixtures";

const chat = (
  over: Partial<ExchangeSummary> = {},
  toolCalls: { name: string; arguments: Record<string, unknown> }[] = [],
) =>
  exchange(
    {
      tap: "model",
      classification: { kind: "model.chat", messageCount: 1, toolCount: 5, stream: true, toolCalls },
      ...over,
    },
    1000,
    null,
  );
const hop = (kind: Hop["kind"], x: ExchangeSummary): Hop => ({
  number: kind === "model-request" ? 3 : 4,
  kind,
  exchangeId: x.id,
  arrows: [],
  at: 0,
});
const streaming = (x: ExchangeSummary) => ({
  ...x,
  state: "streaming" as const,
  timings: { ...x.timings, requestEnd: 1001, firstByte: 3000, end: null },
});

describe("captions by state", () => {
  it("waiting for the first byte says what the model server is doing, and for how long", () => {
    const x = chat();
    const st = streamState({ x, text: null, tokens: 0, ended: false, now: 5201 });
    expect(st).toEqual({ kind: "waiting", elapsedMs: 4200, hasTools: true, streamed: true });
    const c = captionFor(hop("model-request", x), x, x.id, st);
    expect(c.state).toBe("waiting");
    expect(c.meter).toBe("waiting 4.2 s");
    expect(c.text).toContain("loading the model");
    expect(c.text).toContain("reading the prompt");
  });

  it("waiting on a request with stream: false says the whole answer comes at once", () => {
    const base = chat();
    const x: ExchangeSummary = {
      ...base,
      classification: {
        ...(base.classification as Extract<ExchangeSummary["classification"], { kind: "model.chat" }>),
        stream: false,
      },
    };
    const st = streamState({ x, text: null, tokens: 0, ended: false, now: 2001 });
    expect(st).toMatchObject({ kind: "waiting", streamed: false });
    const c = captionFor(hop("model-request", x), x, x.id, st);
    expect(c.text).toContain("stream: false");
    expect(c.meter).toBe("waiting 1.0 s");
  });

  it("a response not streamed is arriving whole: no verdict until it has arrived", () => {
    const base = streaming(chat());
    const x: ExchangeSummary = {
      ...base,
      classification: {
        ...(base.classification as Extract<ExchangeSummary["classification"], { kind: "model.chat" }>),
        stream: false,
      },
    };
    const st = streamState({ x, text: "", tokens: 0, ended: false, now: 3005 });
    expect(st).toEqual({ kind: "arriving" });
    const c = captionFor(hop("model-response", x), x, x.id, st);
    expect(c.title + c.text).not.toMatch(/no tool call|answers in words|writing words/i);
  });

  it("text arriving: tokens so far and tokens/s, and no verdict yet", () => {
    const x = streaming(chat());
    const st = streamState({ x, text: "Your notes say", tokens: 4, ended: false, now: 4000 });
    expect(st).toMatchObject({ kind: "text", tokens: 4, tokensPerSecond: 4 });
    const c = captionFor(hop("model-response", x), x, x.id, st);
    expect(c.meter).toBe("4 tokens so far · 4.0 tokens/s");
    expect(c.title + c.text).not.toMatch(/no tool call/i);
  });

  it("a tool call being written is captioned as one, never as words or 'no tool call'", () => {
    const x = streaming(chat());
    for (const text of ["<tool_call>", '<tool_call>\n{"name": "append", "argu']) {
      const st = streamState({ x: { ...x, id: x.id + text.length * 1000 }, text, tokens: 3, ended: false, now: 4000 });
      expect(st.kind).toBe("tool-call");
      const c = captionFor(hop("model-response", x), x, x.id, st);
      expect(c.title).toMatch(/tool call/);
      expect(c.title + c.text).not.toMatch(/no tool call|answers in words/i);
    }
    const named = streamState({
      x: { ...x, id: 777 },
      text: '<tool_call>\n{"name": "append", "arguments": {}}',
      tokens: 9,
      ended: false,
      now: 4000,
    });
    expect(named).toMatchObject({ kind: "tool-call", toolName: "append" });
  });

  it("the parser is fed incrementally; a partial tag is held back, not yet a call", () => {
    expect(inToolCall(901, "Sure. <tool")).toBe(false);
    expect(inToolCall(901, "Sure. <tool_call>")).toBe(true);
    expect(inToolCall(901, 'Sure. <tool_call>{"name"')).toBe(true);
    expect(inToolCall(902, "just words")).toBe(false);
  });

  it("done gives the model server's load / prompt / eval timings from the final chunk", () => {
    const base = chat({}, [{ name: "append", arguments: { content: "buy milk" } }]);
    const x: ExchangeSummary = {
      ...base,
      state: "complete",
      timings: { start: 1000, requestEnd: 1001, firstByte: 3000, end: 3500 },
      classification: {
        ...(base.classification as Extract<ExchangeSummary["classification"], { kind: "model.chat" }>),
        doneReason: "stop",
        loadDuration: 1.5e9,
        promptEvalDuration: 2e8,
        promptEvalCount: 512,
        evalDuration: 1e9,
        evalCount: 25,
      },
    };
    const st = streamState({ x, text: "<tool_call>…</tool_call>", tokens: 1, ended: true, now: 9999 });
    const c = captionFor(hop("model-response", x), x, x.id, st);
    expect(c.state).toBe("done");
    expect(c.title).toBe("The model asks for a tool: append");
    expect(c.meter).toBe(
      "Model server: loading the model 1.5 s · reading the prompt (512 tokens) 0.2 s · writing 25 tokens 1.0 s = 25.0 tokens/s",
    );
  });

  it("a stream cut mid-tool-call is captioned as cut, not as done", () => {
    const x: ExchangeSummary = {
      ...streaming(chat()),
      id: 555,
      state: "aborted",
      timings: { start: 1000, requestEnd: 1001, firstByte: 3000, end: 3100 },
    };
    const st = streamState({ x, text: '<tool_call>\n{"name": "app', tokens: 6, ended: true, now: 4000 });
    expect(st).toEqual({ kind: "cut", inToolCall: true, tokens: 6 });
    const c = captionFor(hop("model-response", x), x, x.id, st);
    expect(c.title).toBe("The stream was cut in the middle of a tool call");
    expect(c.title + c.text).not.toMatch(/answers in words|no tool call/i);
    // A stream that "completed" without its final done chunk was cut too.
    const noDone: ExchangeSummary = { ...x, id: 556, state: "complete" };
    expect(streamState({ x: noDone, text: "Hel", tokens: 1, ended: true, now: 4000 }).kind).toBe("cut");
  });
});
