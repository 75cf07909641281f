/**
 * The one error every importer throws for a file it cannot read. Its message is written for the person
 * who picked the file (what is wrong, where, how to fix it); routes answer it with 400 and store nothing.
 */
import type { JsonLimitError } from "@hopscope/shared/json/parse";

export class TraceImportError extends Error {
  override readonly name = "TraceImportError";
  constructor(
    /** Which reader refused the file. */
    readonly format: "hopscope" | "har" | "unknown",
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** A file over the JSON depth limit: no trace file nests that deep, so it is refused before any reader walks it. */
export function tooDeep(format: TraceImportError["format"], err: JsonLimitError): TraceImportError {
  return new TraceImportError(format, `not a trace file hopscope can read: ${err.message}`, { cause: err });
}
