/**
 * The one way a zod validation failure becomes text: `field: what is wrong` per issue, the field written
 * as zod's own `z.prettifyError` writes it (`messages[1].tool_calls[0].function.name`). Not prettifyError
 * itself: its layout spends two lines and a symbol per issue, and our failures travel inside one-line
 * error bodies and log lines, so the caller picks the separator.
 */
import { z } from "zod";

export interface IssueListOptions {
  /** What the validated value is called, for an issue about the value as a whole ("body", "frame"). */
  whole: string;
  /** "; " keeps the list on one line (the default); "\n" gives one issue per line. */
  separator?: "; " | "\n";
  /** Put before each issue (an indent for lists one per line). */
  indent?: string;
  /** List at most this many issues; the rest are counted, since a wholly wrong file would give thousands. */
  max?: number;
  /** Names the field of an issue, when the path is not what the reader knows (an environment variable). */
  field?: (path: readonly PropertyKey[]) => string;
}

/** Where an issue is: its path as zod writes it, or `whole` for the value itself. */
export function issueField(path: readonly PropertyKey[], whole: string): string {
  return path.length === 0 ? whole : z.core.toDotPath(path);
}

/** Every issue of `error` as `field: message`. */
export function formatZodIssues(error: z.ZodError, opts: IssueListOptions): string {
  const max = opts.max ?? Infinity;
  const field = opts.field ?? ((path) => issueField(path, opts.whole));
  const lines = error.issues.slice(0, max).map((i) => `${opts.indent ?? ""}${field(i.path)}: ${i.message}`);
  const more = error.issues.length - max;
  if (more > 0) lines.push(`${opts.indent ?? ""}… and ${more} more problem${more === 1 ? "" : "s"}`);
  return lines.join(opts.separator ?? "; ");
}
