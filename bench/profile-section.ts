/** The report's section on where the recorder's CPU goes, from the profile run (bench/profile.ts). */
import { f } from "./figures";
import type { ProfileBench } from "./results";

/** SQLite's CPU per request from the profile run: its share of the recording thread times that thread's µs per request. */
export function sqliteMicros(p: ProfileBench | null): number | null {
  const rec = p?.threads.find((t) => t.name === "hs-recording");
  const pct = p?.recording?.sqlitePercent;
  return rec && pct !== undefined && Number.isFinite(pct) ? (rec.microsPerRequest * pct) / 100 : null;
}

/** SQLite's share of all the recorder's CPU in the profile run (the profiler's own thread left out). */
export function sqliteShare(p: ProfileBench | null): number | null {
  const micros = sqliteMicros(p);
  if (micros === null || !p) return null;
  const total = p.threads.filter((t) => !t.name.startsWith("v8:")).reduce((n, t) => n + t.microsPerRequest, 0);
  return total > 0 ? micros / total : null;
}

export function profileSection(p: ProfileBench | null): string[] {
  if (!p) return [];
  return [
    "## Where the recorder's CPU goes",
    "",
    `apps/proxy run with \`node --cpu-prof\`, ${p.seconds} s of 16-connection load on \`${p.path}\`: ${p.requests} requests, ${f(p.rps)} req/s, ${f(p.cpuMicrosPerRequest)} µs CPU per request with the profiler on. Percentages are of the recorder's busy samples (idle excluded). Re-run alone with \`npx tsx bench/profile.ts\`; the analysis is in [docs/bench.md](../docs/bench.md).`,
    "",
    ...((p.threads ?? []).length > 0
      ? [
          `CPU µs per request by thread (from /proc, profiler on): ${p.threads.map((t) => `${t.name} ${f(t.microsPerRequest)}`).join(", ")} — "hs-taps" is the taps thread (the forward path), "hs-recording" the recording thread (recorder, SQLite), "main" the API and live feed, "node" V8's platform threads (the garbage collector's concurrent marking and sweeping, background compilation, for every isolate), "v8:ProfEvntProc" the profiler itself, "libuv-worker" the thread pool. The first two tables profile the taps thread, the last one the recording thread.`,
          "",
        ]
      : []),
    "| step (inclusive) | % CPU | main callers |",
    "|---|---|---|",
    ...p.steps.map(
      (s) =>
        `| \`${s.name}\` | ${f(s.percent, 1)} | ${s.callers.map((c) => `${c.name} ${f(c.percent, 1)}`).join(", ")} |`,
    ),
    "",
    "| function (self time) | % CPU |",
    "|---|---|",
    ...p.topSelf.map((x) => `| ${x.name.replace(/\|/g, "\\|")} | ${f(x.percent, 1)} |`),
    "",
    ...(p.recording
      ? [
          ...(p.recording.sqlitePercent !== undefined
            ? [
                `SQLite on the recording thread (better-sqlite3's transactions and the native statement calls the store writer makes): ${f(p.recording.sqlitePercent, 1)} % of its busy samples${sqliteMicros(p) === null ? "" : `, about ${f(sqliteMicros(p) as number, 1)} µs per request`}.`,
                "",
              ]
            : []),
          "| recording thread: step (inclusive) | % CPU |",
          "|---|---|",
          ...p.recording.steps.map((s) => `| \`${s.name}\` | ${f(s.percent, 1)} |`),
          "",
          "| recording thread: function (self time) | % CPU |",
          "|---|---|",
          ...p.recording.topSelf.map((x) => `| ${x.name.replace(/\|/g, "\\|")} | ${f(x.percent, 1)} |`),
          "",
        ]
      : []),
  ];
}
