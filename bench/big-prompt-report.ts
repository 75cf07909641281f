/** The bench report's section on a 1 MB prompt's views (bench/big-prompt.ts measures it). */
import type { BigPromptBench } from "./big-prompt";
import { f, ratio } from "./figures";

export function bigPromptSection(b: BigPromptBench | null): string[] {
  if (!b) return [];
  return [
    "## A 1 MB prompt's views: how long the API thread is held",
    "",
    "| | largest event-loop delay ms | p99 ms | wall ms | tokens |",
    "|---|---|---|---|---|",
    `| views (tokenised on the tokenizer thread) | ${f(b.viewsMaxDelayMs)} | ${f(b.viewsP99DelayMs)} | ${f(b.viewsWallMs)} | ${b.tokens} |`,
    `| baseline: the same prompt tokenised on the API thread | ${f(b.inlineMaxDelayMs)} | ${f(b.inlineP99DelayMs)} | – | – |`,
    "",
    `Ratio of the largest delays: ${ratio(b.viewsMaxDelayMs, b.inlineMaxDelayMs)} (target: the API thread never held over 100 ms).`,
    "",
  ];
}
