/**
 * A 3 MB chat to the stand-in. Ollama reads a chat body whole with no size limit (server/routes.go,
 * `ChatHandler`: `c.ShouldBindJSON(&req)`, no `http.MaxBytesReader`; only server/cloud_proxy.go caps the
 * decompressed bodies it forwards to the cloud), so the stand-in answers it as Ollama does: the prompt cut
 * to the context window, and a 200.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import type { RunningServer } from "../src/server";
import { startSim } from "./helpers";

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
