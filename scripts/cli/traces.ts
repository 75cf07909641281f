/** `hopscope traces [--json] [--limit N]`: the recorded traces, newest first. */
import { TraceListSchema } from "@hopscope/shared/trace/api";
import { exchangesText, plural } from "./counts";
import { call, guarded } from "./api/recorder-client";

export async function run(args: string[]): Promise<number> {
  return guarded(async () => {
    const json = args.includes("--json");
    const li = args.indexOf("--limit");
    const limit = li >= 0 ? Number(args[li + 1]) : 50;
    if (!Number.isInteger(limit) || limit < 1) {
      process.stderr.write("hopscope traces: --limit takes a whole number ≥ 1\n");
      return 2;
    }
    const list = await call(`/api/traces?limit=${limit}`, TraceListSchema);
    if (json) {
      process.stdout.write(`${JSON.stringify(list.traces, null, 2)}\n`);
      return 0;
    }
    if (list.traces.length === 0) {
      process.stdout.write(
        'no traces yet: ask the agent something (npm run -s hopscope -- ask "Add buy milk to my notes")\n',
      );
      return 0;
    }
    for (const t of list.traces) {
      const when = new Date(t.updatedAt).toISOString().replace("T", " ").slice(0, 19);
      const flags = [
        t.simulated ? "stand-in" : t.simulated === false ? "ollama" : "",
        t.errorCount ? plural(t.errorCount, "error") : "",
        t.savedAs ? `saved: ${t.savedAs}` : "",
      ]
        .filter(Boolean)
        .join(", ");
      process.stdout.write(
        `${t.id}  ${when}  ${exchangesText(t.exchangeCount).padStart(13)}  ${t.name}${flags ? `  (${flags})` : ""}\n`,
      );
    }
    return 0;
  });
}
