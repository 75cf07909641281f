import type { SoakBench } from "./report";
export async function runSoak(log: (s: string) => void): Promise<SoakBench | null> {
  log("bench: soak not wired yet");
  return null;
}
