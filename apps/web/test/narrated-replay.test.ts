import { describe, expect, it } from "vitest";
import { countAgreement, generatedAgreement } from "../src/models/budget";
import { numberHops } from "../src/models/hops";
import { keyHops, MIN_DWELL_MS, narratedDelay, nextSpeed, SPEEDS } from "../src/models/replay-timing";
import { toolRows } from "../src/models/tools-table";
import { groupTraces } from "../src/models/trace-groups";
import { articleTrace } from "./fixtures";

describe("narrated replay timing", () => {
  it("holds at the article's key hops: the two model requests and the tool call (3, 4, 6)", () => {
    const xs = articleTrace();
    expect([...keyHops(numberHops(xs), new Map(xs.map((x) => [x.id, x])))].sort()).toEqual([3, 4, 6]);
  });

  it("stays at least the minimum dwell ÷ speed on a hop, and plays chunks at their recorded gaps", () => {
    const hop = { t: 10, type: "hop", hop: 2 } as const;
    const chunk = { t: 10, type: "chunk", exchangeId: 1, index: 0 } as const;
    expect(narratedDelay(hop, 5, 1, 0)).toBe(MIN_DWELL_MS);
    expect(narratedDelay(hop, 5, 0.25, 0)).toBe(MIN_DWELL_MS * 4);
    expect(narratedDelay(hop, 5, 4, 500)).toBe(MIN_DWELL_MS / 4 - 500);
    expect(narratedDelay(hop, 2_000, 0.5, 10_000)).toBe(2_500); // the recorded gap ÷ speed, capped at MAX_GAP_MS
    expect(narratedDelay(chunk, 40, 0.5, 0)).toBe(80);
    expect(narratedDelay(hop, 5, 1, Number.POSITIVE_INFINITY)).toBe(5);
  });

  it("steps speeds within 0.25×–4×", () => {
    expect(SPEEDS).toEqual([0.25, 0.5, 1, 2, 4]);
    expect(nextSpeed(1, 1)).toBe(2);
    expect(nextSpeed(4, 1)).toBe(4);
    expect(nextSpeed(0.25, -1)).toBe(0.25);
    expect(nextSpeed(10, -1)).toBe(2);
  });
});

describe("hop payloads", () => {
  it("reads the tools table from a tools/list answer, SSE or JSON", () => {
    const answer = {
      jsonrpc: "2.0",
      id: 1,
      result: {
        tools: [
          {
            name: "read",
            description: "Read it.",
            inputSchema: { type: "object", properties: {} },
            annotations: { readOnlyHint: true },
          },
          {
            name: "update",
            description: "Find and replace.",
            inputSchema: {
              type: "object",
              properties: { search: { type: "string" }, replace: { type: "string" }, all: { type: "boolean" } },
              required: ["search", "replace"],
            },
          },
        ],
      },
    };
    for (const body of [JSON.stringify(answer), `event: message\ndata: ${JSON.stringify(answer)}\n\n`]) {
      const rows = toolRows(body);
      expect(rows?.map((r) => r.name)).toEqual(["read", "update"]);
      expect(rows?.[0]?.hints).toEqual(["read-only"]);
      expect(rows?.[1]?.arguments).toEqual([
        { name: "search", type: "string", required: true },
        { name: "replace", type: "string", required: true },
        { name: "all", type: "boolean", required: false },
      ]);
    }
    expect(toolRows('{"jsonrpc":"2.0","id":1,"result":{"content":[]}}')).toBeNull();
  });

  it("says how our token count compares with the server's", () => {
    expect(countAgreement(471, 471)).toMatchObject({ equal: true, text: "471 tokens, as the model server counted" });
    expect(countAgreement(509, 38).detail).toContain("cache");
    expect(countAgreement(400, 410).detail).toContain("different prompt");
    expect(countAgreement(10, undefined).equal).toBe(false);
  });
});

describe("generated tokens against eval_count", () => {
  it("explains the one token the server counts more: the end of the turn", () => {
    expect(generatedAgreement(19, 20)).toContain(
      "20 tokens generated, as the model server counted (eval_count): the 19 of this text, plus <|im_end|>",
    );
    expect(generatedAgreement(12, 12)).toBe("12 tokens generated, as the model server counted (eval_count)");
    expect(generatedAgreement(12, 30)).toContain("the model server counted 30");
  });
});

describe("trace list groups", () => {
  const t = (id: string, createdAt: number, source: "live" | "imported" = "live") =>
    ({
      id,
      name: `q ${id}`,
      source,
      createdAt,
      updatedAt: createdAt,
      exchangeCount: 5,
      errorCount: 0,
      groupedBy: "traceparent",
      simulated: true,
      savedAs: null,
    }) as const;

  it("groups a conversation's turns (oldest first), keeps imported apart, and searches names and questions", () => {
    const traces = [t("c", 30), t("b", 20), t("i", 15, "imported"), t("a", 10)];
    const facts = new Map([
      ["a", { conversationId: "conv1", question: "Add buy milk to my notes", outcome: "answered" as const }],
      ["c", { conversationId: "conv1", question: "What is in my notes?", outcome: "answered" as const }],
      ["b", { question: "Clear my notes", outcome: "tool error" as const }],
    ]);
    const g = groupTraces(traces, facts);
    expect(g.live.map((x) => x.turns.map((y) => y.id))).toEqual([["a", "c"], ["b"]]);
    expect(g.imported.map((x) => x.key)).toEqual(["i"]);
    expect(groupTraces(traces, facts, "MILK").live.map((x) => x.turns.map((y) => y.id))).toEqual([["a"]]);
    expect(groupTraces(traces, facts, "q i").imported).toHaveLength(1);
  });
});
