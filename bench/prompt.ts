/** Placeholder replaced below once the prompt engine lands. */
import type { PromptBench } from "./report";
export async function runPromptBench(log: (s: string) => void): Promise<PromptBench | null> {
  log("bench: prompt engine bench not wired yet");
  return null;
}
