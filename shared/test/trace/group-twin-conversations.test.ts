/**
 * Conversation grouping without traceparent (group.ts, `pickTurn`) for identical conversations running at
 * once, e.g. two learners in a workshop asking the same question of a deterministic model: the messages
 * cannot tell them apart, the wire can (which client connection, which address), and each conversation's
 * latest turn is followed up once.
 */
import { describe, expect, it } from "vitest";
import { FallbackGrouper } from "@hopscope/shared/trace/group";
import { mcpClientOf } from "@hopscope/shared/trace/group-mcp";

let n = 0;
const grouper = () => new FallbackGrouper({ newTraceId: () => `t${++n}` });

const sys = { role: "system", content: "You take notes." };
const ask = { role: "user", content: "Add buy milk to my notes" };
const called = {
  role: "assistant",
  content: "",
  tool_calls: [{ function: { name: "append", arguments: { content: "buy milk" } } }],
};
const result = { role: "tool", content: "Success", tool_name: "append" };
const done = { role: "assistant", content: "Added." };
const again = { role: "user", content: "And eggs" };
/** The turns of the conversation both learners have: each request carries everything before it. */
const TURNS = [
  [sys, ask],
  [sys, ask, called, result],
  [sys, ask, called, result, done, again],
];

describe("two identical conversations at once", () => {
  it("on kept-alive connections stay two traces, each with its own connection's turns, however interleaved", () => {
    const g = grouper();
    const a = "127.0.0.1:50001";
    const b = "127.0.0.1:50002";
    const ta = g.assignModelChat(TURNS[0]!, 1, null, a).traceId;
    const tb = g.assignModelChat(TURNS[0]!, 2, null, b).traceId;
    expect(tb).not.toBe(ta);
    // B is ahead at turn 2, A at turn 3: each turn still joins its own connection's conversation.
    expect(g.assignModelChat(TURNS[1]!, 3, null, b).traceId).toBe(tb);
    expect(g.assignModelChat(TURNS[1]!, 4, null, a).traceId).toBe(ta);
    expect(g.assignModelChat(TURNS[2]!, 5, null, a).traceId).toBe(ta);
    expect(g.assignModelChat(TURNS[2]!, 6, null, b).traceId).toBe(tb);
  });

  it("over a new connection per request from one machine stay two traces of three turns", () => {
    const g = grouper();
    let port = 51000;
    const fresh = () => `127.0.0.1:${++port}`;
    const seen: string[] = [];
    for (const turn of TURNS)
      for (let learner = 0; learner < 2; learner++)
        seen.push(g.assignModelChat(turn, seen.length, null, fresh()).traceId);
    const counts = new Map<string, number>();
    for (const t of seen) counts.set(t, (counts.get(t) ?? 0) + 1);
    expect([...counts.values()]).toEqual([3, 3]);
  });

  it("from two machines over new connections per request: each machine's turns in its own trace", () => {
    const g = grouper();
    let port = 52000;
    const from = (address: string) => `${address}:${++port}`;
    const ta = g.assignModelChat(TURNS[0]!, 1, null, from("192.168.1.20")).traceId;
    const tb = g.assignModelChat(TURNS[0]!, 2, null, from("192.168.1.31")).traceId;
    // B follows up first; it must not take A's turn (which is older, and just as unfollowed).
    expect(g.assignModelChat(TURNS[1]!, 3, null, from("192.168.1.31")).traceId).toBe(tb);
    expect(g.assignModelChat(TURNS[1]!, 4, null, from("192.168.1.20")).traceId).toBe(ta);
    expect(g.assignModelChat(TURNS[2]!, 5, null, from("192.168.1.31")).traceId).toBe(tb);
    expect(g.assignModelChat(TURNS[2]!, 6, null, from("::ffff:192.168.1.20")).traceId).not.toBe(tb);
  });

  it("sharing one pooled connection (one process serving both) stay two traces", () => {
    const g = grouper();
    const pooled = "127.0.0.1:53001";
    const ta = g.assignModelChat(TURNS[0]!, 1, null, pooled).traceId;
    const tb = g.assignModelChat(TURNS[0]!, 2, null, "127.0.0.1:53002").traceId;
    // Both follow-ups come on the pooled connection: the second goes to the turn still waiting for one.
    const first = g.assignModelChat(TURNS[1]!, 3, null, pooled).traceId;
    const second = g.assignModelChat(TURNS[1]!, 4, null, pooled).traceId;
    expect(new Set([first, second])).toEqual(new Set([ta, tb]));
  });
});

describe("the tools/call two identical conversations ask for", () => {
  /** An MCP client on `connection` (its agent's own connection to the MCP server). */
  const mcp = (connection: string) => mcpClientOf(connection, [["User-Agent", "node"]], {});
  /** Two identical conversations, on connections `a` and `b`, whose model asked for `append`. */
  function twoAskedForAppend(g: ReturnType<typeof grouper>, a: string, b: string): [string, string] {
    const ta = g.assignModelChat(TURNS[0]!, 1, null, a).traceId;
    const tb = g.assignModelChat(TURNS[0]!, 2, null, b).traceId;
    g.noteToolCalls(ta, ["append"], 3, a);
    g.noteToolCalls(tb, ["append"], 4, b);
    return [ta, tb];
  }

  it("joins the conversation of the machine it comes from, not the oldest that asked", () => {
    const g = grouper();
    const [ta, tb] = twoAskedForAppend(g, "10.0.0.2:41001", "10.0.0.3:41002");
    // B's agent calls first, from its own machine (its MCP client has a connection of its own).
    expect(g.assignMcp("tools/call", "append", 5, mcp("10.0.0.3:42001"))).toMatchObject({
      traceId: tb,
      groupedBy: "conversation",
    });
    expect(g.assignMcp("tools/call", "append", 6, mcp("10.0.0.2:42002"))).toMatchObject({
      traceId: ta,
      groupedBy: "conversation",
    });
  });

  it("from one machine: each call answers one of them, oldest first", () => {
    const g = grouper();
    const [ta, tb] = twoAskedForAppend(g, "127.0.0.1:43001", "127.0.0.1:43002");
    expect(g.assignMcp("tools/call", "append", 5, mcp("127.0.0.1:44001")).traceId).toBe(ta);
    expect(g.assignMcp("tools/call", "append", 6, mcp("127.0.0.1:44002")).traceId).toBe(tb);
  });
});

describe("one conversation", () => {
  it("over a new connection per turn stays one trace", () => {
    const g = grouper();
    const traces = TURNS.map((turn, i) => g.assignModelChat(turn, i, null, `127.0.0.1:${54000 + i}`));
    expect(new Set(traces.map((t) => t.traceId)).size).toBe(1);
    expect(traces.map((t) => t.groupedBy)).toEqual(["single", "conversation", "conversation"]);
  });

  it("a turn sent twice (a client's retry) joins the conversation both times", () => {
    const g = grouper();
    const t = g.assignModelChat(TURNS[0]!, 1, null, "127.0.0.1:55001").traceId;
    expect(g.assignModelChat(TURNS[1]!, 2, null, "127.0.0.1:55002").traceId).toBe(t);
    expect(g.assignModelChat(TURNS[1]!, 3, null, "127.0.0.1:55003").traceId).toBe(t);
  });

  it("a retry of a turn stays with its machine, though another machine left an identical turn unanswered", () => {
    const g = grouper();
    g.assignModelChat(TURNS[0]!, 1, null, "10.0.0.3:40001");
    const mine = g.assignModelChat(TURNS[0]!, 2, null, "10.0.0.2:40002").traceId;
    expect(g.assignModelChat(TURNS[1]!, 3, null, "10.0.0.2:40003").traceId).toBe(mine);
    expect(g.assignModelChat(TURNS[1]!, 4, null, "10.0.0.2:40004").traceId).toBe(mine);
  });

  it("asked again later on one connection joins the new run, not an earlier run left unanswered", () => {
    const g = grouper();
    // An earlier run whose first turn was never followed up (the agent was stopped), on another connection.
    const old = g.assignModelChat(TURNS[0]!, 1, null, "127.0.0.1:56001").traceId;
    const run = g.assignModelChat(TURNS[0]!, 100, null, "127.0.0.1:56002").traceId;
    expect(run).not.toBe(old);
    expect(g.assignModelChat(TURNS[1]!, 101, null, "127.0.0.1:56002").traceId).toBe(run);
  });

  it("without a known connection (an import, a replay) groups by the messages as before", () => {
    const g = grouper();
    const t = g.assignModelChat(TURNS[0]!, 1).traceId;
    expect(g.assignModelChat(TURNS[1]!, 2).traceId).toBe(t);
    expect(g.assignModelChat(TURNS[2]!, 3).traceId).toBe(t);
  });
});
