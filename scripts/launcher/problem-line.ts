/**
 * What `npm start` shows of an app's log while it runs: its warnings and errors, one readable line each,
 * as they happen. The rest of a child's output stays in the short buffer shown when it fails; without
 * this a running recorder that cannot store a change, or a tap whose upstream is down, says nothing.
 */

const SHOWN = new Set(["warn", "error"]);
/** The log line's own bookkeeping: not worth a learner's reading. */
const SKIPPED = new Set(["level", "time", "app", "msg", "stack"]);
const MAX_VALUE = 200;

/**
 * The line to print for one line of an app's stderr, or null when it is not a warning or an error.
 * Apps log one JSON object a line (@hopscope/nodekit/logger); anything else is not ours to judge here.
 */
export function problemLine(service: string, line: string): string | null {
  let entry: unknown;
  try {
    entry = JSON.parse(line);
  } catch {
    return null;
  }
  if (typeof entry !== "object" || entry === null) return null;
  const fields = entry as Record<string, unknown>;
  if (typeof fields.level !== "string" || !SHOWN.has(fields.level)) return null;
  const details = Object.entries(fields)
    .filter(([k]) => !SKIPPED.has(k))
    .map(([k, v]) => `${k}: ${valueText(v)}`);
  const mark = fields.level === "error" ? "✗" : "!";
  return `  ${mark} ${service}: ${String(fields.msg ?? "")}${details.length ? ` (${details.join(", ")})` : ""}`;
}

function valueText(v: unknown): string {
  const text =
    typeof v === "string"
      ? v
      : v !== null && typeof v === "object" && "message" in v
        ? String((v as { message: unknown }).message)
        : JSON.stringify(v);
  return text.length > MAX_VALUE ? `${text.slice(0, MAX_VALUE)}…` : text;
}
