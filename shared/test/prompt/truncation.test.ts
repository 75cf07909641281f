/**
 * The truncation rule against Ollama's own loop (server/prompt.go chatPrompt, v0.32.15), ported line for line
 * below as the reference: for i from 0, the system messages before i plus messages i… are rendered; the first
 * that fits wins; the last message always stays. The cases are the ones that loop distinguishes.
 */
import { describe, expect, it } from "vitest";
import { estimatedStart, keptMessages, truncationStart } from "@hopscope/shared/prompt/truncation";

/** chatPrompt's loop, with the render's token count given per message (a template that renders each on its own). */
function ollamaLoop(roles: string[], cost: number[], frame: number, numCtx: number): number {
  const lastMsgIdx = roles.length - 1;
  let currMsgIdx = 0;
  for (let i = 0; i <= lastMsgIdx; i++) {
    const system = roles.flatMap((r, j) => (j < i && r === "system" ? [j] : []));
    const msgs = [...system, ...roles.map((_, j) => j).slice(i)];
    const ctxLen = frame + msgs.reduce((n, j) => n + cost[j]!, 0);
    if (ctxLen <= numCtx) {
      currMsgIdx = i;
      break;
    }
    if (i === lastMsgIdx) {
      currMsgIdx = lastMsgIdx;
      break;
    }
  }
  return currMsgIdx;
}

const CASES: { name: string; roles: string[]; cost: number[]; numCtx: number }[] = [
  { name: "everything fits", roles: ["system", "user"], cost: [100, 20], numCtx: 4096 },
  {
    name: "the oldest turns go",
    roles: ["system", "user", "assistant", "tool", "user"],
    cost: [100, 900, 50, 3000, 20],
    numCtx: 3300,
  },
  {
    name: "only the last stays, still too long",
    roles: ["system", "user", "assistant", "tool"],
    cost: [9000, 30, 40, 10],
    numCtx: 4096,
  },
  {
    name: "a system message in the middle is kept",
    roles: ["user", "system", "user", "assistant", "user"],
    cost: [500, 300, 500, 500, 10],
    numCtx: 900,
  },
  { name: "one message", roles: ["user"], cost: [99999], numCtx: 10 },
  { name: "exactly at the limit fits", roles: ["system", "user", "user"], cost: [10, 10, 10], numCtx: 35 },
];

describe("Ollama's truncation rule", () => {
  for (const c of CASES) {
    it(`${c.name}: the same first kept message as chatPrompt's loop, from any first guess`, () => {
      const frame = 5;
      const want = ollamaLoop(c.roles, c.cost, frame, c.numCtx);
      const tokens = (start: number) => frame + keptMessages(c.roles, start).reduce((n, j) => n + c.cost[j]!, 0);
      for (let guess = 0; guess < c.roles.length; guess++) {
        const calls: number[] = [];
        const got = truncationStart({
          roles: c.roles,
          guess,
          fits: (i) => {
            calls.push(i);
            return tokens(i) <= c.numCtx;
          },
        });
        expect(got, `guess ${guess}`).toBe(want);
        expect(new Set(calls).size, "each start rendered at most once").toBe(calls.length);
      }
    });
  }

  it("keeps the system messages before the start, in place, and everything after it", () => {
    expect(keptMessages(["system", "user", "system", "assistant", "user"], 3)).toEqual([0, 2, 3, 4]);
    expect(keptMessages(["user", "assistant"], 0)).toEqual([0, 1]);
  });

  it("guesses the start from each message's tokens, so one or two renders find it", () => {
    const roles = ["system", "user", "assistant", "tool", "user"];
    const per = new Map([
      [0, 100],
      [1, 900],
      [2, 50],
      [3, 3000],
      [4, 20],
    ]);
    expect(estimatedStart(roles, per, 4070, 3300)).toBe(2);
    expect(estimatedStart(roles, per, 4070, 5000)).toBe(0);
    expect(estimatedStart(roles, per, 4070, 10)).toBe(4);
  });
});
