/** The bench report's section on a 1 MB prompt's views and page (bench/big-prompt.ts measures it). */
import { HOLD_TARGET_MS, type BigPromptBench, type HeldThread } from "./big-prompt";
import { f, ratio } from "./figures";
import type { LongPieceCase } from "./long-piece";

function heldRow(label: string, h: HeldThread | undefined): string[] {
  if (!h) return [];
  return [
    `| ${label} | ${f(h.maxDelayMs)} | ${f(h.p99DelayMs)} | ${f(h.wallMs)} | ${h.status}, ${f(h.bytes / 1024)} KB |`,
  ];
}

/** " — median of 3 fresh exchanges (31, 28, 137 ms)" */
function runsOf(runs: number[] | undefined): string {
  return runs && runs.length > 1
    ? ` — median of ${runs.length} fresh exchanges (${runs.map((ms) => f(ms)).join(", ")} ms)`
    : "";
}

function verdict(label: string, ms: number | undefined): string[] {
  if (ms === undefined) return [];
  const ok = ms <= HOLD_TARGET_MS;
  return [`- ${ok ? "✅" : "❌"} ${label}: the API thread held at most ${f(ms)} ms (target: ${HOLD_TARGET_MS} ms)`];
}

export function bigPromptSection(b: BigPromptBench | null): string[] {
  if (!b) return [];
  return [
    "## A 1 MB prompt's views and page: how long the API thread is held",
    "",
    "| | largest event-loop delay ms | p99 ms | wall ms | answer |",
    "|---|---|---|---|---|",
    `| full views (tokenised on the tokenizer thread; ${b.tokens} tokens)${runsOf(b.viewsRunsMaxDelayMs)} | ${f(b.viewsMaxDelayMs)} | ${f(b.viewsP99DelayMs)} | ${f(b.viewsWallMs)} | – |`,
    ...heldRow("lean views (`?omit=tokens,comparisons`), a fresh exchange", b.lean),
    ...heldRow("HTML export of the 1 MB trace", b.htmlExport),
    ...heldRow(
      `HTML export of a ${f((b.hugeExport?.promptBytes ?? 0) / 1024 / 1024)} MB prompt's trace (refused)`,
      b.hugeExport,
    ),
    `| baseline: the same prompt tokenised on the API thread | ${f(b.inlineMaxDelayMs)} | ${f(b.inlineP99DelayMs)} | – | – |`,
    "",
    ...verdict("full views of the 1 MB prompt", b.viewsMaxDelayMs),
    ...verdict("lean views of the 1 MB prompt", b.lean?.maxDelayMs),
    ...verdict("HTML export of the 1 MB trace", b.htmlExport?.maxDelayMs),
    ...verdict("HTML export of the 15 MB trace", b.hugeExport?.maxDelayMs),
    "",
    `Ratio of the full views' largest delay to the baseline's: ${ratio(b.viewsMaxDelayMs, b.inlineMaxDelayMs)}. The delays include the machine's own scheduling: on a loaded machine a thread waits for a core too.`,
    "",
    ...longPieceLines(b.longPieces),
  ];
}

function longPieceLines(cases: LongPieceCase[] | undefined): string[] {
  if (!cases?.length) return [];
  return [
    "### One long pre-tokenizer piece, on the tokenizer thread",
    "",
    "| text | tokens | ms | baseline: the Hugging Face tokenizer alone, ms | ratio |",
    "|---|---|---|---|---|",
    ...cases.map((c) => `| ${c.name} | ${c.tokens} | ${f(c.ms)} | ${f(c.baselineMs)} | ${ratio(c.ms, c.baselineMs)} |`),
    "",
    "Same ids from both (checked). The first long piece also builds the merge tables once (about a tenth of a second).",
    "",
  ];
}
