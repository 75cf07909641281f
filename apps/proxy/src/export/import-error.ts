/**
 * The one error every importer throws for a file it cannot read. Its message is written for the person
 * who picked the file (what is wrong, where, how to fix it); routes answer it with 400 and store nothing.
 */
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
