/**
 * What differs between "what the model saw" and how an older Ollama family rendered the same request: the
 * families differ only in how each tool (and, from 0.20, a nested `required`) is printed, so the prompts are
 * compared line by line, and only the lines that differ are shown side by side.
 */
import { familyOf } from "@hopscope/shared/prompt/version";

export interface LinePair {
  /** 0-based line number in both prompts. */
  line: number;
  now: string;
  then: string;
}

export interface FamilyDiff {
  /** Lines that differ, in order; empty when the prompts do not line up (then show the whole older prompt). */
  pairs: LinePair[];
  /** Whether the two prompts have the same number of lines, so `pairs` is the whole difference. */
  aligned: boolean;
  bytesNow: number;
  bytesThen: number;
}

const utf8 = new TextEncoder();

export function familyDiff(now: string, then: string): FamilyDiff {
  const a = now.split("\n");
  const b = then.split("\n");
  const aligned = a.length === b.length;
  const pairs: LinePair[] = [];
  if (aligned) a.forEach((line, i) => line !== b[i] && pairs.push({ line: i, now: line, then: b[i]! }));
  return { pairs, aligned, bytesNow: utf8.encode(now).length, bytesThen: utf8.encode(then).length };
}

/** "Ollama 0.20+ (today's)" for a version string, or null when it is not one (the view then names the version only). */
export function familyLabel(version: string): string | null {
  try {
    return familyOf(version).label;
  } catch {
    return null;
  }
}
