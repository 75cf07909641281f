import { describe, expect, it } from "vitest";
import { formatHopNumber, hopNumbers } from "@hopscope/shared/trace/hop-numbers";

type Ex = Parameters<typeof hopNumbers>[0][number];
const ex = (id: number, tap: Ex["tap"], start: number, end: number | null, state: Ex["state"] = "complete"): Ex => ({
  id,
  tap,
  state,
  timings: { start, requestEnd: start, firstByte: end, end },
});

describe("hop numbers (the article's Part 4 numbering)", () => {
  it("numbers the article's trace 1, 2, 3–4, 5, 6–7 and the reply 8", () => {
    const n = hopNumbers([
      ex(1, "agent", 0, 100),
      ex(2, "mcp", 1, 2),
      ex(3, "model", 3, 40),
      ex(4, "mcp", 41, 42),
      ex(5, "model", 43, 99),
    ]);
    expect([1, 2, 3, 4, 5].map((id) => formatHopNumber(n.get(id)))).toEqual(["1–8", "2", "3–4", "5", "6–7"]);
  });

  it("leaves the reply unnumbered while the question is still being answered", () => {
    const n = hopNumbers([ex(1, "agent", 0, null, "pending"), ex(2, "mcp", 1, 2)]);
    expect(n.get(1)).toEqual({ request: 1 });
    expect(n.get(2)).toEqual({ request: 2 });
  });

  it("puts each reply after the hops it caused when one trace holds two questions", () => {
    const n = hopNumbers([
      ex(1, "agent", 0, 50),
      ex(2, "model", 1, 49),
      ex(3, "agent", 60, 90),
      ex(4, "model", 61, 89),
    ]);
    expect([1, 2, 3, 4].map((id) => formatHopNumber(n.get(id)))).toEqual(["1–4", "2–3", "5–8", "6–7"]);
  });

  it("orders by start time whatever order the exchanges come in", () => {
    const n = hopNumbers([ex(5, "model", 43, 99), ex(2, "mcp", 1, 2), ex(1, "agent", 0, 100)]);
    expect(formatHopNumber(n.get(2))).toBe("2");
    expect(formatHopNumber(n.get(5))).toBe("3–4");
    expect(formatHopNumber(n.get(1))).toBe("1–5");
  });
});
