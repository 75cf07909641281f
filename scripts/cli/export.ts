/** `hopscope export <traceId> [--format hopscope|har|otlp|mermaid|html] [--out FILE]`: a trace as a file (stdout by default). */
import { writeFileSync } from "node:fs";
import { callText, guarded } from "./api/recorder-client";

const FORMATS = ["hopscope", "har", "otlp", "mermaid", "html"] as const;

export async function run(args: string[]): Promise<number> {
  return guarded(async () => {
    const id = args.find((a, i) => !a.startsWith("--") && !["--format", "--out"].includes(args[i - 1] ?? ""));
    const fi = args.indexOf("--format");
    const format = fi >= 0 ? args[fi + 1] : "hopscope";
    const oi = args.indexOf("--out");
    const out = oi >= 0 ? args[oi + 1] : undefined;
    if (!id) {
      process.stderr.write(
        "usage: hopscope export <traceId> [--format hopscope|har|otlp|mermaid|html] [--out FILE]\n(list ids with: npm run -s hopscope -- traces)\n",
      );
      return 2;
    }
    if (!FORMATS.includes(format as (typeof FORMATS)[number])) {
      process.stderr.write(`hopscope export: unknown format "${format}": use one of ${FORMATS.join(", ")}\n`);
      return 2;
    }
    const text = await callText(`/api/traces/${encodeURIComponent(id)}/export?format=${format}`);
    if (out) {
      writeFileSync(out, text);
      process.stderr.write(`wrote ${out}\n`);
    } else process.stdout.write(text);
    return 0;
  });
}
