import { describe, expect, it } from "vitest";
import { TurnIndex } from "../../src/trace/turn-index";
import { FallbackGrouper } from "../../src/trace/group";

const turn = (id: string, n: number) => ({ id, keys: Array.from({ length: n }, (_, i) => `k${i}`) });

describe("TurnIndex", () => {
  it("hands out the turns of one length, oldest first, and forgets the oldest past a bound", () => {
    const t = new TurnIndex<ReturnType<typeof turn>>();
    for (const [id, n] of [
      ["a", 1],
      ["b", 2],
      ["c", 1],
      ["d", 2],
      ["e", 3],
    ] as const)
      t.push(turn(id, n));
    expect(t.withLength(1).map((x) => x.id)).toEqual(["a", "c"]);
    expect(t.withLength(4)).toEqual([]);
    t.trim(3);
    expect(t.size).toBe(3);
    expect([t.withLength(1), t.withLength(2), t.withLength(3)].map((l) => l.map((x) => x.id))).toEqual([
      ["c"],
      ["d"],
      ["e"],
    ]);
    t.retain((x) => x.id !== "d");
    expect([t.size, t.withLength(2).length, t.withLength(1)[0]?.id]).toEqual([2, 0, "c"]);
  });
});

describe("grouping with many remembered turns", () => {
  it("still joins a follow-up to its own conversation's latest turn, past hundreds of unrelated ones", () => {
    let n = 0;
    const g = new FallbackGrouper({ newTraceId: () => `t${++n}` });
    const user = (content: string) => ({ role: "user", content });
    const first = g.assignModelChat([user("Add buy milk to my notes")], 0, null, "127.0.0.1:1");
    // 400 other learners asking other things, some of them twice as long.
    for (let i = 0; i < 400; i++)
      g.assignModelChat(
        i % 2 ? [user(`question ${i}`)] : [user(`question ${i}`), { role: "assistant", content: "?" }],
        1,
        null,
        `127.0.0.2:${i}`,
      );
    const second = g.assignModelChat(
      [
        user("Add buy milk to my notes"),
        { role: "assistant", content: "", tool_calls: [] },
        { role: "tool", content: "Success" },
      ],
      2,
      null,
      "127.0.0.1:1",
    );
    expect(second).toEqual({ traceId: first.traceId, groupedBy: "conversation" });
    const third = g.assignModelChat(
      [
        user("Add buy milk to my notes"),
        { role: "assistant", content: "", tool_calls: [] },
        { role: "tool", content: "Success" },
        { role: "assistant", content: "Done." },
        user("and eggs"),
      ],
      3,
      null,
      "127.0.0.1:1",
    );
    expect(third.traceId).toBe(first.traceId);
  });
});
