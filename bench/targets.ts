/**
 * Issue 15's targets, checked against one run (side by side, so ratios compare like with like): hopscope
 * recording every exchange at ≥ 1.0× the plain Node pass-through, ≥ 10× mitmdump, ≥ 0.4× nginx; CPU per
 * recorded exchange ≤ the pass-through's CPU per request; added one-connection latency ≤ the
 * pass-through's; streams forwarded as they come under load; nothing answered left unrecorded.
 * (Steady RSS is judged in the soak section.)
 */
import type { BenchResults } from "./results";
import { f, ratio } from "./figures";
import { sqliteShare } from "./profile-section";

export function targets(r: BenchResults): string[] {
  const by = (prefix: string) => r.contenders.find((c) => c.name.startsWith(prefix));
  const hop = by("hopscope");
  const node = by("node");
  const nginx = by("nginx");
  const mitm = by("mitmdump");
  const direct = by("direct");
  if (!hop) return ["hopscope was not measured."];
  const lines: string[] = [];
  const check = (ok: boolean, text: string, miss: string) =>
    lines.push(`- ${ok ? "✅" : "❌"} ${text}${ok ? "" : ` — ${miss}`}`);
  /** How far a throughput ratio is from its goal: "needs 2.33× its throughput". */
  const short = (have: number, goal: number) => `missed: needs ${f(goal / have, 2)}× its current throughput`;
  // Throughput ratios use the MCP-like (400-byte) load: the issue's reference figures are for that shape.
  if (node) {
    const x = hop.mcpRps / node.mcpRps;
    check(
      x >= 1,
      `hopscope with recording ≥ 1.0× the plain Node pass-through: ${ratio(hop.mcpRps, node.mcpRps)}`,
      short(x, 1),
    );
  }
  if (mitm) {
    const x = hop.mcpRps / mitm.mcpRps;
    check(x >= 10, `≥ 10× mitmdump: ${ratio(hop.mcpRps, mitm.mcpRps)}`, short(x, 10));
  }
  if (nginx) {
    const x = hop.mcpRps / nginx.mcpRps;
    check(x >= 0.4, `≥ 0.4× nginx: ${ratio(hop.mcpRps, nginx.mcpRps)}`, short(x, 0.4));
  }
  if (node) {
    const x = hop.mcpCpuMicros / node.mcpCpuMicros;
    // The issue counts a miss whose cost is SQLite's (or the kernel's, or node:http's): the profile run gives
    // SQLite's share of the recorder's CPU, applied to this run's CPU per exchange.
    const share = sqliteShare(r.profile);
    const sqlite = share === null ? null : share * hop.mcpCpuMicros;
    const without =
      sqlite === null
        ? ""
        : `; SQLite's share of it (profile below) is about ${f(sqlite, 1)} µs, so hopscope less SQLite is ${f(hop.mcpCpuMicros - sqlite, 1)} µs, ${hop.mcpCpuMicros - sqlite <= node.mcpCpuMicros ? "within" : "still over"} the pass-through's ${f(node.mcpCpuMicros)}`;
    check(
      x <= 1,
      `CPU per recorded exchange ≤ 1.0× the pass-through's per request: ${f(hop.mcpCpuMicros)} vs ${f(node.mcpCpuMicros)} µs (${f(x, 2)}×)`,
      `missed by ${f(hop.mcpCpuMicros - node.mcpCpuMicros)} µs per exchange${without}`,
    );
  }
  if (direct && node) {
    const added = hop.singleMeanLatencyMs - direct.singleMeanLatencyMs;
    const base = node.singleMeanLatencyMs - direct.singleMeanLatencyMs;
    check(
      added <= base,
      `added latency at one connection ≤ the pass-through's: ${f(added, 3)} vs ${f(base, 3)} ms`,
      `missed by ${f(added - base, 3)} ms`,
    );
  }
  check(
    hop.streamFirstLineLoadedMs < 250 && hop.streamMaxGapLoadedMs < 250,
    `streamed lines forwarded as they come, even under load: first line ${f(hop.streamFirstLineLoadedMs)} ms, largest gap ${f(hop.streamMaxGapLoadedMs)} ms (upstream sends every 50 ms)`,
    "lines are held back (a first line or a gap of 250 ms or more)",
  );
  lines.push(...recordedLines(r));
  if (lines.some((l) => l.startsWith("- ❌"))) {
    lines.push(
      "",
      "Why the missed targets are missed: the profile below, and the analysis in [docs/recorder-performance.md](../docs/recorder-performance.md).",
    );
  }
  return lines;
}

/** A recording proxy must have stored at least every exchange the load generator saw answered. */
function recordedLines(r: BenchResults): string[] {
  return r.contenders
    .filter((c) => c.recorded !== null && c.recorded !== undefined)
    .map((c) => {
      const rec = c.recorded ?? 0;
      return `- ${rec >= c.answered ? "✅" : "❌"} ${c.name} stored ${rec} exchanges in SQLite for ${c.answered} answered requests over its rounds${rec > c.answered ? " (the rest: requests cut off when a load run ended, stored as aborted)" : ""}.`;
    });
}
