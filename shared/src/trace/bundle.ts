/**
 * The hopscope trace file (`*.hopscope.json`): one trace with every exchange, self-contained (bodies
 * included; a body that is not valid UTF-8 travels as base64, see `BodySchema`). Written by the
 * recorder's export (apps/proxy/src/export/hopscope.ts) and by "save to traces/", read back by import.
 *
 * Compatibility promise: every later version of hopscope still reads version 1. A file is read in
 * three steps: check `format`, refuse versions newer than this build knows, then upgrade older
 * versions one step at a time through `MIGRATIONS` before the strict schema check. To add version 2:
 * bump `TRACE_BUNDLE_VERSION`, change `TraceBundleSchema`, and add `MIGRATIONS[1]` (v1 document → v2
 * document). Never edit a migration that has shipped.
 */
import { z } from "zod";
import { ExchangeSchema, NotesChangeSchema, TraceSchema } from "./schemas";
import { formatZodIssues } from "../json/zod-error";

export const TRACE_BUNDLE_FORMAT = "hopscope-trace";
/** The version this build writes, and the newest it reads. */
export const TRACE_BUNDLE_VERSION = 1;

export const TraceBundleSchema = z
  .object({
    format: z.literal(TRACE_BUNDLE_FORMAT),
    version: z.literal(TRACE_BUNDLE_VERSION),
    /** When the file was written, ISO 8601 (UTC). */
    exportedAt: z.iso.datetime({ offset: true }),
    /** What wrote the file, e.g. `{ name: "hopscope", version: "0.1.0" }`. */
    generator: z.object({ name: z.string().min(1), version: z.string() }),
    /** The trace with its exchange summaries (in order) and links. */
    trace: TraceSchema,
    /** Every exchange of the trace, in the order of `trace.exchanges`, with headers, bodies and chunks. */
    exchanges: z.array(ExchangeSchema),
    /** The notes-file changes of the trace (./notes-file.ts), when the recorder saw any; optional in version 1. */
    notes: z.array(NotesChangeSchema).optional(),
  })
  .superRefine((bundle, ctx) => {
    // The summaries in `trace.exchanges` and the full exchanges must describe the same exchanges; a
    // hand-edited file that disagrees with itself would show one thing in the list and another in detail.
    const ids = new Set(bundle.exchanges.map((e) => e.id));
    const first = new Map<number, number>();
    bundle.exchanges.forEach((e, i) => {
      const earlier = first.get(e.id);
      if (earlier !== undefined) {
        // Each id is one exchange: a second one would replace the first when stored.
        ctx.addIssue({
          code: "custom",
          path: ["exchanges", i, "id"],
          message: `exchange id ${e.id} is used twice (exchanges ${earlier} and ${i}); give each exchange its own id`,
        });
      } else first.set(e.id, i);
      if (e.traceId !== bundle.trace.id) {
        ctx.addIssue({
          code: "custom",
          path: ["exchanges", i, "traceId"],
          message: `expected "${bundle.trace.id}" (the id of trace), got "${e.traceId}"`,
        });
      }
    });
    bundle.trace.exchanges.forEach((s, i) => {
      if (!ids.has(s.id)) {
        ctx.addIssue({
          code: "custom",
          path: ["trace", "exchanges", i, "id"],
          message: `exchange ${s.id} is listed in the trace but missing from "exchanges"`,
        });
      }
    });
    bundle.trace.links.forEach((l, i) => {
      for (const end of ["from", "to"] as const) {
        if (!ids.has(l[end])) {
          ctx.addIssue({
            code: "custom",
            path: ["trace", "links", i, end],
            message: `link points to exchange ${l[end]}, which is not in "exchanges"`,
          });
        }
      }
    });
  });
export type TraceBundle = z.infer<typeof TraceBundleSchema>;

export type Migration = (doc: Record<string, unknown>) => Record<string, unknown>;

/**
 * `MIGRATIONS[n]` turns a version-n document into a version-(n+1) document. Empty while version 1 is
 * the only version; the loop in `parseTraceBundle` is what later versions plug into.
 */
export const MIGRATIONS: Readonly<Record<number, Migration>> = {};

/**
 * Applies `migrations[from]`, `migrations[from + 1]`, … until the document is at version `to`. Exported
 * (with the table as a parameter) so the upgrade path is tested before there is a second version.
 */
export function upgradeBundleDocument(
  doc: Record<string, unknown>,
  from: number,
  migrations: Readonly<Record<number, Migration>> = MIGRATIONS,
  to: number = TRACE_BUNDLE_VERSION,
): Record<string, unknown> {
  let current = doc;
  for (let v = from; v < to; v++) {
    const migrate = migrations[v];
    if (!migrate) throw new Error(`hopscope bug: no migration from trace file version ${v} to ${v + 1}`);
    current = migrate(current);
  }
  return current;
}

function fail(path: (string | number)[], message: string): never {
  throw new z.ZodError([{ code: "custom", path, message, input: undefined }]);
}

function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "string") return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  return typeof value;
}

/**
 * Messages a user can act on: `expected "utf8" or "base64", got "latin1"` rather than zod's defaults.
 * Pass it as `{ error: bundleErrorMap }` when parsing other user files (HAR) so they read the same.
 */
export const bundleErrorMap: z.core.$ZodErrorMap = (issue) => {
  switch (issue.code) {
    case "invalid_value": {
      const options = issue.values.map((v) => JSON.stringify(v));
      const expected = options.length <= 2 ? options.join(" or ") : `one of ${options.join(", ")}`;
      return `expected ${expected}, got ${describe(issue.input)}`;
    }
    case "invalid_type":
      return issue.input === undefined
        ? `required ${issue.expected} is missing`
        : `expected ${issue.expected}, got ${describe(issue.input)}`;
    case "invalid_format": {
      const expected =
        issue.format === "url"
          ? "an absolute URL"
          : issue.format === "datetime"
            ? "an ISO 8601 date-time such as 2026-11-29T20:15:03.120Z"
            : `a valid ${issue.format}`;
      return `expected ${expected}, got ${describe(issue.input)}`;
    }
    case "invalid_union":
      return `does not match any allowed shape (got ${describe(issue.input)})`;
    default:
      return undefined;
  }
};

/**
 * Reads a hopscope trace file (already `JSON.parse`d). Throws a `ZodError` naming every field that is
 * wrong; show it with `formatBundleError`.
 * @example parseTraceBundle(JSON.parse(await readFile("traces/buy-milk.hopscope.json", "utf8")))
 */
export function parseTraceBundle(json: unknown): TraceBundle {
  if (typeof json !== "object" || json === null || Array.isArray(json)) {
    fail(
      [],
      `expected a hopscope trace file (a JSON object with "format": "${TRACE_BUNDLE_FORMAT}"), got ${describe(json)}`,
    );
  }
  let doc = json as Record<string, unknown>;
  if (doc.format !== TRACE_BUNDLE_FORMAT) {
    fail(
      ["format"],
      `expected "${TRACE_BUNDLE_FORMAT}", got ${describe(doc.format)}: this is not a hopscope trace file`,
    );
  }
  const version = doc.version;
  if (typeof version !== "number" || !Number.isInteger(version) || version < 1) {
    fail(["version"], `expected a whole number from 1 to ${TRACE_BUNDLE_VERSION}, got ${describe(version)}`);
  }
  if (version > TRACE_BUNDLE_VERSION) {
    fail(
      ["version"],
      `this file is version ${version}, but this hopscope reads versions 1 to ${TRACE_BUNDLE_VERSION}: update hopscope to open it`,
    );
  }
  doc = upgradeBundleDocument(doc, version);
  return TraceBundleSchema.parse(doc, { error: bundleErrorMap });
}

/**
 * One line per problem (at most ten), `field.path: message`, e.g.
 * `exchanges[3].requestBody.encoding: expected "utf8" or "base64", got "latin1"`.
 * Errors that are not validation errors give their message.
 */
export function formatBundleError(err: unknown): string {
  if (err instanceof z.ZodError) return formatZodIssues(err, { whole: "(file)", separator: "\n", max: 10 });
  return err instanceof Error ? err.message : String(err);
}
