/** RESULTS.md's "Start" section: `npm start` and `hopscope wrap` beside their floors (bench/start.ts). */
import { cpus } from "node:os";
import type { StartBench } from "./start";

const ms = (x: number) => (Number.isFinite(x) ? `${Math.round(x)} ms` : "–");
const s = (x: number) => (Number.isFinite(x) ? `${(x / 1000).toFixed(1)} s` : "–");
const times = (a: number, b: number) => (Number.isFinite(a / b) ? `${(a / b).toFixed(1)}×` : "–");
const mark = (ok: boolean) => (ok ? "✅" : "❌");

function load(b: StartBench): string {
  const { start, end } = b.loadAverage;
  const busy = Math.max(start, end) > cpus().length;
  return `1-minute load average ${start.toFixed(1)} at the start of this part, ${end.toFixed(1)} at its end${
    busy
      ? ` on ${cpus().length} cores: other work was running and inflates every time here, the floor's too, so read the ratios`
      : ""
  }.`;
}

export function startSection(b: StartBench | null | undefined): string[] {
  if (!b) return [];
  const w = b.wrap;
  const added = w.binMs - w.bareMs;
  return [
    "## Start",
    "",
    `Floor: \`node -e ''\` from spawn to exit, ${ms(b.floorMs)} (median of ${b.warm.runs}). ${load(b)}`,
    "",
    "| | time | × floor | target |",
    "|---|---|---|---|",
    `| \`npm start\` to "Open http://…", warm (everything built; median of ${b.warm.runs}) | ${s(b.warm.ms)} | ${times(b.warm.ms, b.floorMs)} | ${mark(b.warm.ms <= 3000)} ≤ 3 s |`,
    b.first
      ? `| \`npm start\` to "Open http://…", first (nothing built: apps, CLI and UI are built on the way) | ${s(b.first.ms)} | ${times(b.first.ms, b.floorMs)} | ${mark(b.first.ms <= 15000)} ≤ 15 s |`
      : "| `npm start`, first | failed (see the log) | – | ❌ ≤ 15 s |",
    "",
    `\`hopscope wrap\` in front of ${w.server}: spawn → the answer to \`initialize\` on stdout, alternating run by run, median of ${w.runs}.`,
    "",
    "| command | time | × bare | added |",
    "|---|---|---|---|",
    `| the bare server | ${ms(w.bareMs)} | 1.0× | – |`,
    `| a Node that only spawns the server (the least any Node wrapper adds) | ${ms(w.nodeSpawnMs)} | ${times(w.nodeSpawnMs, w.bareMs)} | ${ms(w.nodeSpawnMs - w.bareMs)} |`,
    `| \`node dist/hopscope.js wrap -- …\` (the bin; what \`wrap --config\` writes) | ${ms(w.binMs)} | ${times(w.binMs, w.bareMs)} | ${mark(added <= 200)} ${ms(added)} (target ≤ 200 ms) |`,
    `| \`npm run -s hopscope -- wrap -- …\` (tsx) | ${ms(w.npmRunMs)} | ${times(w.npmRunMs, w.bareMs)} | ${ms(w.npmRunMs - w.bareMs)} |`,
    "",
  ];
}
