/**
 * A 3 MB chat to the stand-in. Ollama reads a chat body whole with no size limit (server/routes.go,
 * `ChatHandler`: `c.ShouldBindJSON(&req)`, no `http.MaxBytesReader`; only server/cloud_proxy.go caps the
 * decompressed bodies it forwards to the cloud), so the stand-in answers it as Ollama does: the prompt cut
 * to the context window, and a 200. The cut keeps the conversation's tail, so a long history ends in the answer
 * its last turn gets on its own.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import type { RunningServer } from "../src/server";
import { QUESTION } from "./agent-requests";
import { NOTES_TOOLS, startSim } from "./helpers";

let sim: RunningServer;

beforeAll(async () => {
  sim = await startSim();
});

afterAll(async () => {
  await sim?.close();
});

it("answers a 3 MB chat, its prompt cut to the context window", async () => {
  const line = "hello world, this is a prompt. ";
  const content = line.repeat(Math.ceil((3 * 1024 * 1024) / line.length));
  const res = await fetch(`${sim.url}/api/chat`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ model: "qwen2.5:7b", stream: false, messages: [{ role: "user", content }] }),
  });
  const body = (await res.json()) as { done?: boolean; prompt_eval_count?: number; message?: { content: string } };
  expect(res.status, JSON.stringify(body).slice(0, 300)).toBe(200);
  expect(body.done).toBe(true);
  expect(body.message!.content.length).toBeGreaterThan(0);
  expect(body.prompt_eval_count).toBeGreaterThan(0);
  expect(body.prompt_eval_count).toBeLessThan(content.length / 4);
}, 300_000);

const chat = async (messages: unknown[]) => {
  const res = await fetch(`${sim.url}/api/chat`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ model: "qwen2.5:7b", stream: false, tools: NOTES_TOOLS, messages }),
  });
  return { status: res.status, body: (await res.json()) as Record<string, any> };
};

it("answers a 3 MB conversation of 3,000 turns as its last question alone", async () => {
  const turn = (k: number) => ({
    role: k % 2 ? "assistant" : "user",
    content: `Turn ${k}: ${"an earlier remark about the weather and the week ahead. ".repeat(19)}`,
  });
  const history = Array.from({ length: 3000 }, (_, k) => turn(k));
  const question = { role: "user", content: QUESTION };
  expect(JSON.stringify(history).length).toBeGreaterThan(3 * 1000 * 1000);

  const big = await chat([...history, question]);
  const alone = await chat([question]);
  expect(big.status, JSON.stringify(big.body).slice(0, 300)).toBe(200);
  expect(big.body.done).toBe(true);
  expect(big.body.message.tool_calls?.[0]?.function).toMatchObject({
    name: "append",
    arguments: { content: "buy milk" },
  });
  expect(big.body.message.tool_calls[0].function).toEqual(alone.body.message.tool_calls[0].function);
  // The prompt is the last turns that fit the 4096-token default window, not one message and not all of them.
  expect(big.body.prompt_eval_count).toBeLessThanOrEqual(4096);
  expect(big.body.prompt_eval_count).toBeGreaterThan(alone.body.prompt_eval_count + 3000);
}, 300_000);
