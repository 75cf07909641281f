/** `hopscope import <file>`: load a hopscope trace file or a HAR into the recorder. */
import { readFileSync } from "node:fs";
import { TraceSummarySchema } from "@hopscope/shared/trace/schemas";
import { exchangesText } from "./counts";
import { call, guarded } from "./api/recorder-client";

export async function run(args: string[]): Promise<number> {
  return guarded(async () => {
    const file = args[0];
    if (!file) {
      process.stderr.write("usage: hopscope import <file.hopscope.json | file.har>\n");
      return 2;
    }
    let body: string;
    try {
      body = readFileSync(file, "utf8");
    } catch (err) {
      process.stderr.write(`hopscope import: cannot read ${file}: ${(err as Error).message}\n`);
      return 1;
    }
    const trace = await call("/api/import", TraceSummarySchema, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body,
    });
    process.stdout.write(`imported ${trace.id}: ${trace.name} (${exchangesText(trace.exchangeCount)})\n`);
    return 0;
  });
}
