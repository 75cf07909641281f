/**
 * The last bench/results.json, read back so a partial run (`--soak` alone, `--no-proxies`, …) rewrites
 * RESULTS.md with the other sections of earlier runs kept, each marked with when it was measured.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import type { BenchResults, Section } from "./results";
import { formatZodIssues } from "@hopscope/shared/json/zod-error";

const FILE = join(import.meta.dirname, "results.json");

/** Only what carrying over relies on is checked; the sections are our own output, written by report.ts. */
const PreviousSchema = z.looseObject({
  startedAt: z.string(),
  rounds: z.number(),
  seconds: z.number(),
  sectionsAt: z.record(z.string(), z.string()).optional(),
  loadAverage: z.object({ start: z.number().nullable(), end: z.number().nullable() }).optional(),
  contenders: z.array(z.looseObject({ name: z.string() })),
  skipped: z.array(z.object({ name: z.string(), reason: z.string() })),
  prompt: z.looseObject({ cases: z.array(z.unknown()) }).nullable(),
  ui: z.looseObject({ notes: z.array(z.string()) }).nullable(),
  soak: z.looseObject({ samples: z.array(z.unknown()) }).nullable(),
});

export function readPrevious(): BenchResults | null {
  if (!existsSync(FILE)) return null;
  const parsed = PreviousSchema.safeParse(JSON.parse(readFileSync(FILE, "utf8")));
  if (!parsed.success) {
    process.stderr.write(
      `bench: ${FILE} is not in the current format (${formatZodIssues(parsed.error, { whole: "file", max: 1 })}); earlier sections are not carried over\n`,
    );
    return null;
  }
  return parsed.data as unknown as BenchResults;
}

export function carryOver(current: BenchResults, previous: BenchResults | null): BenchResults {
  if (!previous) return current;
  const out: BenchResults = { ...current, sectionsAt: { ...current.sectionsAt } };
  const at = (s: Section) => previous.sectionsAt?.[s] ?? previous.startedAt;
  if (!current.sectionsAt.proxies && previous.contenders.length > 0) {
    out.contenders = previous.contenders;
    out.skipped = previous.skipped;
    out.rounds = previous.rounds;
    out.seconds = previous.seconds;
    out.profile = previous.profile ?? null;
    out.readers = previous.readers ?? null;
    out.agentLoad = previous.agentLoad ?? null;
    // The load average that matters is the one the proxies were measured under.
    if (previous.loadAverage) out.loadAverage = previous.loadAverage;
    out.sectionsAt.proxies = at("proxies");
  }
  if (!current.sectionsAt.prompt && previous.prompt) {
    out.prompt = previous.prompt;
    out.sectionsAt.prompt = at("prompt");
  }
  if (!current.sectionsAt.ui && previous.ui) {
    out.ui = previous.ui;
    out.sectionsAt.ui = at("ui");
  }
  if (!current.sectionsAt.start && previous.start) {
    out.start = previous.start;
    out.sectionsAt.start = at("start");
  }
  if (!current.sectionsAt.soak && previous.soak) {
    out.soak = previous.soak;
    out.sectionsAt.soak = at("soak");
  }
  return out;
}
