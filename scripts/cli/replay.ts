/**
 * `hopscope replay <file.hopscope.json | traceId> [--speed N]`: plays a saved trace into the running UI as if it
 * were happening now, hop by hop at the recorded pace (streamed chunks at their recorded times), for a talk with
 * no model at all. The recorder does the pacing (POST /api/replay) so every open browser sees it live.
 */
import { existsSync, readFileSync } from "node:fs";
import { ReplayStartedSchema } from "@hopscope/shared/trace/replay";
import { call, guarded, recorderUrl } from "./recorder-client";

export async function run(args: string[]): Promise<number> {
  return guarded(async () => {
    const target = args.find((a, i) => !a.startsWith("--") && args[i - 1] !== "--speed");
    const si = args.indexOf("--speed");
    const speed = si >= 0 ? Number(args[si + 1]) : 1;
    if (!target) {
      process.stderr.write("usage: hopscope replay <file.hopscope.json | traceId> [--speed N]\n");
      return 2;
    }
    if (!Number.isFinite(speed) || speed <= 0 || speed > 100) {
      process.stderr.write("hopscope replay: --speed takes a number between 0 and 100 (1 = recorded pace)\n");
      return 2;
    }
    const body = existsSync(target)
      ? { bundle: JSON.parse(readFileSync(target, "utf8")) as unknown, speed }
      : { traceId: target, speed };
    const started = await call("/api/replay", ReplayStartedSchema, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    process.stdout.write(
      `replaying "${started.name}" (${started.exchangeCount} hops, ${(started.durationMs / 1000 / speed).toFixed(1)} s): ${recorderUrl()}/#/trace/${started.traceId}\n`,
    );
    return 0;
  });
}
