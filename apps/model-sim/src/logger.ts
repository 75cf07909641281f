/** A minimal pino-compatible logger; silent by default so tests print nothing. */
export interface Logger {
  info(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

export const silentLogger: Logger = { info: () => {}, error: () => {} };

/** One JSON line per event on stderr (stdout stays free for whoever runs us). */
export const stderrLogger: Logger = {
  info: (obj, msg) => process.stderr.write(`${JSON.stringify({ level: "info", msg, ...obj })}\n`),
  error: (obj, msg) => {
    const err = (obj as { err?: unknown }).err;
    const detail = err instanceof Error ? { err: err.message, stack: err.stack } : {};
    process.stderr.write(`${JSON.stringify({ level: "error", msg, ...obj, ...detail })}\n`);
  },
};
