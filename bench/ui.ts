import type { UiBench } from "./report";
export async function runUiBench(log: (s: string) => void): Promise<UiBench | null> {
  log("bench: timeline bench not wired yet");
  return null;
}
