/**
 * The token counts a shared page's token budget will ask for, computed here with the real tokenizer so
 * the page does not carry its megabytes of vocabulary. The budget (shared/prompt/token-budget) counts
 * prefixes of turns; running it once with a recording `count` yields exactly the slices it needs.
 */
import { tokenBudget } from "@hopscope/shared/prompt/token-budget";
import { loadQwenTokenizer } from "@hopscope/shared/tokens/qwen";
import { turnStarts } from "@hopscope/shared/trace/share";
import type { ExchangeViews } from "@hopscope/shared/trace/views";

export async function promptTokenCounts(views: ExchangeViews): Promise<[number, number, number][]> {
  const prompt = views.prompt;
  if (!prompt) return [];
  const tokenizer = await loadQwenTokenizer();
  const { text } = prompt;
  const starts = turnStarts(text);
  const seen = new Map<string, [number, number, number]>();
  const count = (slice: string): number => {
    const start = starts.find((t) => text.startsWith(slice, t));
    if (start === undefined)
      throw new Error("hopscope bug: the token budget counted text that does not start a turn of the prompt");
    const key = `${start}:${slice.length}`;
    const hit = seen.get(key);
    if (hit) return hit[2];
    const n = tokenizer.count(slice);
    seen.set(key, [start, start + slice.length, n]);
    return n;
  };
  tokenBudget({ text, segments: prompt.segments, count, ollamaVersion: prompt.ollamaVersion });
  return [...seen.values()];
}
