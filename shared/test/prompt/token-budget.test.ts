import { readFileSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { renderChat } from "@hopscope/shared/prompt/render";
import { contextWindow, tokenBudget } from "@hopscope/shared/prompt/token-budget";
import { loadQwenTokenizer, type QwenTokenizer } from "@hopscope/shared/tokens/qwen";

const request = (name: string): { tools: { function: { name: string } }[]; messages: unknown[] } =>
  JSON.parse(readFileSync(new URL(`./fixtures/requests/${name}.json`, import.meta.url), "utf8"));

let tok: QwenTokenizer;
beforeAll(async () => {
  tok = await loadQwenTokenizer();
});

function budgetOf(name: string, newFrom?: number) {
  const req = request(name);
  const r = renderChat(req as Parameters<typeof renderChat>[0]);
  return {
    r,
    b: tokenBudget({
      text: r.text,
      segments: r.segments,
      tokenStarts: tok.tokenStarts(r.text, tok.encode(r.text)),
      toolNames: (req.tools ?? []).map((t) => t.function.name),
      ollamaVersion: r.ollamaVersion,
      ...(newFrom !== undefined ? { newFrom } : {}),
    }),
  };
}

describe("token budget", () => {
  it("splits the article's first prompt into system, tool instructions, five tools, the question and the waiting turn — summing to the prompt's count", () => {
    const { r, b } = budgetOf("article-turn1");
    expect(b.total).toBe(tok.count(r.text));
    expect(b.parts.map((p) => p.key)).toEqual([
      "system",
      "tools",
      "tool:0",
      "tool:1",
      "tool:2",
      "tool:3",
      "tool:4",
      "message:0",
      "generation",
    ]);
    expect(b.parts.map((p) => p.label)).toContain("Tool: append");
    expect(b.parts.find((p) => p.key === "message:0")?.label).toBe("Message 1 (user)");
    expect(b.toolCount).toBe(5);
    expect(b.toolsTotal).toBe(b.parts.filter((p) => p.key.startsWith("tool")).reduce((n, p) => n + p.tokens, 0));
    // The tools are most of the prompt: the lesson "your tools cost N tokens on every call".
    expect(b.toolsTotal).toBeGreaterThan(b.total / 2);
    for (const p of b.parts) expect(p.tokens).toBeGreaterThan(0);
    // The waiting turn is the last thing: "<|im_start|>assistant\n" is two or three tokens.
    expect(r.text.slice(b.parts.at(-1)!.start)).toBe("<|im_start|>assistant\n");
    expect(b.newTotal).toBe(0);
  });

  it("marks what is new in the resent request, and still sums to the count", () => {
    const first = budgetOf("article-turn1").r.text;
    const second = budgetOf("article-turn2").r.text;
    let prefix = 0;
    while (prefix < first.length && first[prefix] === second[prefix]) prefix++;
    const { r, b } = budgetOf("article-turn2", prefix);
    expect(b.total).toBe(tok.count(r.text));
    expect(b.parts.filter((p) => p.isNew).map((p) => p.key)).toEqual(["message:1", "message:2", "generation"]);
    expect(b.parts.find((p) => p.key === "message:2")?.role).toBe("tool");
    expect(b.newTotal).toBeLessThan(b.total / 4);
  });

  it("sums exactly on every prompt fixture", () => {
    for (const name of ["several-tool-calls", "system-message", "no-tools", "several-system-messages", "escaping"]) {
      const { r, b } = budgetOf(name);
      expect(b.total, name).toBe(tok.count(r.text));
    }
  });

  it("uses the request's num_ctx, else the version's default", () => {
    expect(contextWindow("0.13.5")).toMatchObject({ tokens: 4096, source: "default" });
    expect(contextWindow("0.6.8").tokens).toBe(2048);
    expect(contextWindow("0.13.5", 8192)).toMatchObject({ tokens: 8192, source: "request" });
    expect(contextWindow("0.15.0").note).toContain("GPU");
  });
});

describe("where each token starts", () => {
  it("gives each token's offset in the text: slices between starts are the tokens, a split character shows once", () => {
    const text = "<|im_start|>user\nhéllo 🎉 wörld — 東京\n<|im_end|>\n";
    const ids = tok.encode(text);
    const starts = tok.tokenStarts(text, ids);
    const pieces = tok.pieces(ids);
    expect(starts).toHaveLength(ids.length);
    expect(starts[0]).toBe(0);
    let joined = "";
    pieces.forEach((p, i) => {
      const slice = text.slice(starts[i], starts[i + 1] ?? text.length);
      // A token that holds part of a character shows as <0xNN>; the character's text goes with the first of them.
      if (!p.includes("<0x")) expect(slice, `token ${i}`).toBe(p);
      joined += slice;
    });
    expect(joined).toBe(text);
  });
});
