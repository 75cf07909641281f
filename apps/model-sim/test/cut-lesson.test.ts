/**
 * The `cut` lesson over HTTP: a streamed answer in words stalls after a few tokens and then the stream
 * ends with no `done: true` line (the tool call before it goes through whole); with `stream: false` the
 * answer comes whole, since only a stream can be cut.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningServer } from "../src/server";
import { CUT_AFTER_TEXT_CHUNKS, STALL_MS } from "../src/sim/cut-stream";
import { NOTES_TOOLS, assistantCall, post, startSim, toolResult, user } from "./helpers";

const ADD = user("Add buy milk to my notes");
const AFTER_CALL = [ADD, assistantCall("append", { content: "buy milk" }), toolResult("append", "Success")];
const CUT = { "x-hopscope-lesson": "cut" };

describe("the cut lesson", () => {
  let sim: RunningServer;
  beforeAll(async () => {
    sim = await startSim();
  });
  afterAll(() => sim?.close());

  it("streams the tool call whole, with its final chunk", async () => {
    const res = await post(`${sim.url}/api/chat`, { model: "qwen2.5:7b", messages: [ADD], tools: NOTES_TOOLS }, CUT);
    const lines = res.text
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { done: boolean; message: { tool_calls?: unknown[] } });
    expect(res.headers.get("x-hopscope-lesson")).toBe("cut");
    expect(lines.some((l) => l.message.tool_calls?.length)).toBe(true);
    expect(lines.at(-1)?.done).toBe(true);
  });

  it("stalls the answer in words, then ends the stream with no done chunk", async () => {
    const t0 = performance.now();
    const res = await post(
      `${sim.url}/api/chat`,
      { model: "qwen2.5:7b", messages: AFTER_CALL, tools: NOTES_TOOLS },
      CUT,
    );
    expect(performance.now() - t0).toBeGreaterThanOrEqual(STALL_MS);
    expect(res.status).toBe(200);
    const lines = res.text
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { done: boolean; message: { content: string } });
    expect(lines).toHaveLength(CUT_AFTER_TEXT_CHUNKS);
    expect(lines.every((l) => l.done === false)).toBe(true);
    const text = lines.map((l) => l.message.content).join("");
    const whole = JSON.parse(
      (
        await post(`${sim.url}/api/chat`, {
          model: "qwen2.5:7b",
          messages: AFTER_CALL,
          tools: NOTES_TOOLS,
          stream: false,
        })
      ).text,
    ) as { message: { content: string } };
    expect(text.length).toBeGreaterThan(0);
    expect(whole.message.content.startsWith(text)).toBe(true);
    expect(whole.message.content.length).toBeGreaterThan(text.length);
  });

  it("answers whole with stream: false", async () => {
    const res = await post(
      `${sim.url}/api/chat`,
      { model: "qwen2.5:7b", messages: AFTER_CALL, tools: NOTES_TOOLS, stream: false },
      CUT,
    );
    const body = JSON.parse(res.text) as { done: boolean; message: { content: string } };
    expect(body.done).toBe(true);
    expect(body.message.content).toMatch(/buy milk/);
  });
});
