/**
 * `hopscope replay <file.hopscope.json | traceId> [--speed N]`: plays a saved trace into the running UI as if it
 * were happening now, hop by hop at the recorded pace (streamed chunks at their recorded times), for a talk with
 * no model at all. The recorder does the pacing (POST /api/replay) so every open browser sees it live.
 */
import { existsSync, readFileSync } from "node:fs";
import { parseJson } from "@hopscope/shared/json/parse";
import { ReplayStartedSchema } from "@hopscope/shared/trace/replay";
import { exchangesText } from "./counts";
import { call, guarded, recorderUrl } from "./api/recorder-client";

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
    let body: string;
    let notes = "";
    if (existsSync(target)) {
      const file = readFileSync(target, "utf8");
      // Checked here with the recorder's own limits (a clear message naming the file), then sent as read.
      try {
        const n = (parseJson(file) as { notes?: unknown }).notes;
        // The notes file's changes travel with the trace: the replay's file lane shows them.
        if (Array.isArray(n) && n.length > 0) notes = `, ${n.length} notes-file change${n.length === 1 ? "" : "s"}`;
      } catch (err) {
        process.stderr.write(`hopscope replay: ${target} is not a trace file: ${(err as Error).message}\n`);
        return 2;
      }
      body = `{"bundle":${file},"speed":${speed}}`;
    } else body = JSON.stringify({ traceId: target, speed });
    const started = await call("/api/replay", ReplayStartedSchema, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body,
    });
    process.stdout.write(
      `replaying "${started.name}" (${exchangesText(started.exchangeCount)}${notes}, ${(started.durationMs / 1000 / speed).toFixed(1)} s): ${recorderUrl()}/#/trace/${started.traceId}\n`,
    );
    return 0;
  });
}
