/**
 * Stands in for `@hopscope/shared/tokens/qwen` in the shared page's build (vite.share.config.ts): the
 * real tokenizer is megabytes. The token budget only calls `count` on slices of the prompts in the page,
 * and the export computed exactly those counts (SharedTrace.tokenCounts); they are answered from there.
 * Anything else was not computed, and says so (the budget then shows that error, not a wrong number).
 */
import type { SharedTrace } from "@hopscope/shared/trace/share";

/** Counted slices by their length (a trace's prompts share long prefixes: only same-length slices are compared). */
const byLength = new Map<number, { text: string; start: number; n: number }[]>();

/** Called once by the page with the embedded trace. */
export function registerTokenCounts(shared: SharedTrace): void {
  for (const [id, triples] of Object.entries(shared.tokenCounts)) {
    const text = shared.views[id]?.prompt?.text;
    if (text === undefined) continue;
    for (const [start, end, n] of triples) {
      const list = byLength.get(end - start) ?? [];
      list.push({ text, start, n });
      byLength.set(end - start, list);
    }
  }
}

function count(slice: string): number {
  for (const { text, start, n } of byLength.get(slice.length) ?? []) if (text.startsWith(slice, start)) return n;
  throw new Error("this count was not computed when the trace was exported (the shared page carries no tokenizer)");
}

export function loadQwenTokenizer(): Promise<{ count(text: string): number }> {
  return Promise.resolve({ count });
}
