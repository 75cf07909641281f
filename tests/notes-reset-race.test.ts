/**
 * A notes reset that answered 200 is never undone by a tool call landing a few ms around it: the reset and
 * the notes server's read-modify-write hold the file's lock, so an append lands wholly before the reset
 * (and is wiped by it) or wholly after (on the reset's content) — through the MCP tap, and straight to the
 * server as a stdio host's calls are (no tap sees those). Real stack, real file, many trials.
 */
import { writeFile } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildToolCallRequest } from "@hopscope/shared/mcp/request";
import { startRecorderStack, type RecorderStack } from "./support/recorder-stack";

let stack: RecorderStack;
beforeAll(async () => {
  stack = await startRecorderStack();
});
afterAll(async () => {
  await stack.close();
});

async function append(mcpUrl: string, id: number, content: string): Promise<number> {
  const req = buildToolCallRequest(id, "append", { content });
  const res = await fetch(mcpUrl, { method: "POST", headers: req.headers, body: JSON.stringify(req.body) });
  await res.text();
  return res.status;
}

async function reset(): Promise<number> {
  const res = await fetch(`${stack.uiUrl}/api/notes/reset`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ set: "empty" }),
  });
  await res.text();
  return res.status;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Trials of an append and a reset a few ms apart; the file after each trial. */
async function race(mcpUrl: string, trials: number): Promise<{ after: string[]; resets: number }> {
  const after: string[] = [];
  let resets = 0;
  for (let i = 0; i < trials; i++) {
    await writeFile(stack.notesFile, "call the dentist\n");
    const delay = i % 6;
    const [, resetStatus] = await Promise.all([
      sleep(delay % 3).then(() => append(mcpUrl, i, `x${i}`)),
      sleep(delay >= 3 ? 1 : 0).then(reset),
    ]);
    if (resetStatus === 200) {
      resets++;
      after.push(await stack.readNotes());
    }
  }
  return { after, resets };
}

describe("a notes reset racing a tool call", () => {
  it.each([
    ["through the MCP tap", () => `${stack.tapUrls.mcp}/mcp`],
    ["straight to the notes server (as stdio, no tap)", () => `${stack.mcpServerUrl}`],
  ])("is never undone %s", async (_how, url) => {
    const { after, resets } = await race(url(), 60);
    expect(resets).toBeGreaterThan(10);
    // Either the append came first (the reset wiped it) or after (it sits alone on the reset's content).
    const undone = after.filter((text) => text.includes("call the dentist"));
    expect(undone).toEqual([]);
    for (const text of after) expect(text).toMatch(/^(x\d+\n)?$/);
  });
});
