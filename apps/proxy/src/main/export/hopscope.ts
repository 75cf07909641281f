/**
 * hopscope's own trace file (`*.hopscope.json`): the lossless format. The schema, its versions and the
 * migrations of older versions live in @hopscope/shared/trace/bundle; this module writes and reads text.
 */
import { JsonLimitError, parseJson } from "@hopscope/shared/json/parse";
import {
  TRACE_BUNDLE_FORMAT,
  TRACE_BUNDLE_VERSION,
  TraceBundleSchema,
  formatBundleError,
  parseTraceBundle,
  type TraceBundle,
} from "@hopscope/shared/trace/bundle";
import { redactBundle } from "@hopscope/shared/trace/redact";
import type { Exchange, Trace } from "@hopscope/shared/trace/schemas";
import { GENERATOR } from "./generator";
import { TraceImportError, tooDeep } from "./import-error";

/** Wraps a stored trace and its exchanges (in trace order) into a bundle stamped with this build and `now`. */
export function createTraceBundle(trace: Trace, exchanges: Exchange[], now: Date = new Date()): TraceBundle {
  return {
    format: TRACE_BUNDLE_FORMAT,
    version: TRACE_BUNDLE_VERSION,
    exportedAt: now.toISOString(),
    generator: { ...GENERATOR },
    trace,
    exchanges,
  };
}

/**
 * The trace file's text. Validated before writing, so a store bug never produces a file that import
 * would refuse later.
 */
export function exportHopscope(bundle: TraceBundle): string {
  return `${JSON.stringify(TraceBundleSchema.parse(bundle), null, 2)}\n`;
}

/** Reads a trace file; throws `TraceImportError` saying what is wrong (one `field.path: message` per line). */
export function importHopscope(text: string): TraceBundle {
  let json: unknown;
  try {
    json = parseJson(text);
  } catch (err) {
    if (err instanceof JsonLimitError) throw tooDeep("hopscope", err);
    throw new TraceImportError(
      "hopscope",
      `not a hopscope trace file: the file is not valid JSON (${(err as Error).message})`,
      { cause: err },
    );
  }
  let bundle: TraceBundle;
  try {
    bundle = parseTraceBundle(json);
  } catch (err) {
    throw new TraceImportError("hopscope", `invalid hopscope trace file:\n${formatBundleError(err)}`, { cause: err });
  }
  // A file written by hand or by an older build may carry secrets: cleaned before anything stores it.
  return redactBundle(bundle);
}
