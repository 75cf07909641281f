import { describe, expect, it } from "vitest";
import type { TraceSummary } from "@hopscope/shared/trace/schemas";
import { groupTraces, type TraceFacts } from "../src/models/trace-groups";

const t = (id: string, createdAt: number, source: "live" | "imported" = "imported"): TraceSummary => ({
  id,
  name: "buy milk (the article's trace, Ollama 0.13.5)",
  source,
  createdAt,
  updatedAt: createdAt + 2000,
  exchangeCount: 5,
  errorCount: 0,
  groupedBy: "traceparent",
  simulated: true,
  savedAs: null,
});

describe("trace list groups: copies of one trace", () => {
  // Found from outside: opening traces/buy-milk.hopscope.json twice (or importing it, then opening it)
  // listed "conversation · 2 turns", turn 1 and turn 2 the same trace.
  it("are not turns of a conversation: two imports of the same trace stand apart", () => {
    const traces = [t("copy3", 1000), t("copy2", 1000), t("copy1", 1000)];
    const facts = new Map<string, TraceFacts>(
      traces.map((x) => [x.id, { conversationId: "conv1", question: "Add buy milk to my notes", outcome: "answered" }]),
    );
    const g = groupTraces(traces, facts);
    expect(g.imported.map((x) => x.turns.map((y) => y.id))).toEqual([["copy3"], ["copy2"], ["copy1"]]);
  });

  it("while an imported conversation's real turns (each started at its own time) still group, without its copies", () => {
    const traces = [t("turn2", 9000), t("turn1-copy", 1000), t("turn1", 1000)];
    const facts = new Map<string, TraceFacts>(
      traces.map((x) => [x.id, { conversationId: "conv1", outcome: "answered" }]),
    );
    const g = groupTraces(traces, facts);
    // Which of the two identical copies counts as the turn does not matter; that one copy stands apart does.
    expect(g.imported.map((x) => x.turns.map((y) => y.createdAt))).toEqual([[1000, 9000], [1000]]);
  });

  it("a replay of an imported turn (its own start, the same question) is a copy too; a live conversation may ask again", () => {
    const traces = [t("replay", 50_000), t("turn2", 9000), t("turn1", 1000)];
    const facts = new Map<string, TraceFacts>([
      ["turn1", { conversationId: "conv1", question: "Add buy milk to my notes", outcome: "answered" }],
      ["turn2", { conversationId: "conv1", question: "What is in my notes?", outcome: "answered" }],
      ["replay", { conversationId: "conv1", question: "Add buy milk to my notes", outcome: "answered" }],
    ]);
    expect(groupTraces(traces, facts).imported.map((x) => x.turns.map((y) => y.id))).toEqual([
      ["replay"],
      ["turn1", "turn2"],
    ]);
    const live = [t("again", 9000, "live"), t("first", 1000, "live")];
    const liveFacts = new Map<string, TraceFacts>(
      live.map((x) => [x.id, { conversationId: "conv2", question: "Add buy milk to my notes", outcome: "answered" }]),
    );
    expect(groupTraces(live, liveFacts).live.map((x) => x.turns.map((y) => y.id))).toEqual([["first", "again"]]);
  });
});
