/**
 * Streaming really streams: at a non-zero rate, the client holds the first chunk before the runner has
 * generated the last token. Asserted as an order of events (runner events and client receipts in one
 * log), never as a duration.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Ollama } from "ollama";
import type { RunnerEvent } from "../src/sim/runner";
import type { RunningServer } from "../src/server";
import { NOTES_TOOLS, assistantCall, startSim, toolResult, user } from "./helpers";

const log: string[] = [];
let sim: RunningServer;

beforeAll(async () => {
  sim = await startSim(
    { tokensPerSecond: 100 },
    {
      onRunnerEvent: (e: RunnerEvent) =>
        log.push(e.type === "done" ? "runner:done" : `runner:token:${e.index}/${e.total}`),
    },
  );
});
afterAll(() => sim.close());

describe("streaming", () => {
  it("the first chunk reaches the client while the runner is still generating", async () => {
    log.length = 0;
    const ollama = new Ollama({ host: sim.url });
    const stream = await ollama.chat({
      model: "qwen2.5:7b",
      messages: [
        user("Add buy milk to my notes"),
        assistantCall("append", { content: "buy milk" }),
        toolResult("append", "Success"),
      ] as never,
      tools: NOTES_TOOLS as never,
      stream: true,
    });
    let text = "";
    for await (const chunk of stream) {
      log.push(chunk.done ? "client:done" : "client:chunk");
      text += chunk.message.content;
    }
    expect(text).toBe('I\'ve added "buy milk" to your notes.');
    const firstReceived = log.indexOf("client:chunk");
    const lastToken = log.findLastIndex((e) => e.startsWith("runner:token:"));
    expect(firstReceived).toBeGreaterThan(-1);
    expect(firstReceived).toBeLessThan(lastToken);
    expect(log.indexOf("runner:done")).toBeLessThan(log.indexOf("client:done"));
  });

  it("a client that hangs up stops the generation", async () => {
    // Slow enough that the hang-up is noticed long before the reply could end.
    const slowLog: string[] = [];
    const slow = await startSim(
      { tokensPerSecond: 50 },
      { onRunnerEvent: (e) => slowLog.push(e.type === "done" ? "runner:done" : `runner:token:${e.index}/${e.total}`) },
    );
    const controller = new AbortController();
    const res = await fetch(`${slow.url}/api/chat`, {
      method: "POST",
      body: JSON.stringify({ model: "qwen2.5:7b", messages: [user("hello")], options: {} }),
      signal: controller.signal,
    });
    const reader = res.body!.getReader();
    await reader.read();
    controller.abort();
    await reader.cancel().catch(() => undefined);
    // Wait well past the time the whole reply takes at 50 tokens/s (~0.5 s): it must not have finished.
    await new Promise((r) => setTimeout(r, 1000));
    await slow.close();
    expect(slowLog).not.toContain("runner:done");
    const generated = slowLog.filter((e) => e.startsWith("runner:token:"));
    expect(generated.length).toBeGreaterThan(0);
    const total = Number(generated[0]!.split("/")[1]);
    expect(generated.length).toBeLessThan(total);
  });
});
