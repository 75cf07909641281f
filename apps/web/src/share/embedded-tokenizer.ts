/**
 * Stands in for `@hopscope/shared/tokens/qwen` in the shared page's build (vite.share.config.ts): the
 * real tokenizer is megabytes. The token budget only calls `count` on slices of the prompts in the page,
 * and the export computed exactly those counts (SharedTrace.tokenCounts); they are answered from there.
 * Anything else was not computed, and says so (the budget then shows that error, not a wrong number).
 */
import type { SharedTrace } from "@hopscope/shared/trace/share";

const known: { text: string; counts: Map<string, number> }[] = [];

/** Called once by the page with the embedded trace. */
export function registerTokenCounts(shared: SharedTrace): void {
  for (const [id, triples] of Object.entries(shared.tokenCounts)) {
    const text = shared.views[id]?.prompt?.text;
    if (text === undefined) continue;
    known.push({ text, counts: new Map(triples.map(([start, end, n]) => [`${start}:${end}`, n])) });
  }
}

function count(slice: string): number {
  for (const { text, counts } of known) {
    for (const [key, n] of counts) {
      const [start, end] = key.split(":").map(Number) as [number, number];
      if (end - start === slice.length && text.startsWith(slice, start)) return n;
    }
  }
  throw new Error("this count was not computed when the trace was exported (the shared page carries no tokenizer)");
}

export function loadQwenTokenizer(): Promise<{ count(text: string): number }> {
  return Promise.resolve({ count });
}
