/**
 * Times as Ollama writes them: `created_at` is Go's RFC3339Nano in UTC (nanosecond digits, trailing
 * zeros trimmed), and durations are integer nanoseconds.
 */

const origin = performance.timeOrigin;

/** Now, as `time.Now().UTC()` marshals: "2026-11-29T20:31:45.123456789Z". */
export function goNow(): string {
  const exact = origin + performance.now(); // ms with µs resolution
  const ms = Math.floor(exact);
  const subMsNanos = Math.floor((exact - ms) * 1e6);
  const iso = new Date(ms).toISOString(); // 2026-11-29T20:31:45.123Z
  const nanos = `${iso.slice(20, 23)}${String(subMsNanos).padStart(6, "0")}`.replace(/0+$/, "");
  return `${iso.slice(0, 19)}${nanos ? `.${nanos}` : ""}Z`;
}

/** A monotonic clock in nanoseconds, for durations. */
export function nowNs(): number {
  return Number(process.hrtime.bigint());
}

/** `time.Now().Add(ms)` as RFC3339Nano UTC, for `/api/ps` `expires_at`. */
export function goTimeIn(ms: number): string {
  // Ollama keeps a model forever for a negative keep_alive (math.MaxInt64 ns ≈ 292 years).
  const at = Number.isFinite(ms) ? Date.now() + ms : Date.UTC(2318, 0, 1);
  return new Date(at).toISOString().replace(/\.(\d*?)0*Z$/, (_m, digits: string) => (digits ? `.${digits}Z` : "Z"));
}
