/** A small pino-compatible logger interface; the default writes one JSON line per event to stderr. */
export interface Logger {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
  debug?(obj: object, msg: string): void;
}

export const silentLogger: Logger = { info() {}, warn() {}, error() {} };

export const stderrLogger: Logger = {
  info: (obj, msg) => write("info", obj, msg),
  warn: (obj, msg) => write("warn", obj, msg),
  error: (obj, msg) => write("error", obj, msg),
};

function write(level: string, obj: object, msg: string): void {
  const o = Object.fromEntries(Object.entries(obj).map(([k, v]) => [k, v instanceof Error ? { message: v.message, stack: v.stack } : v]));
  process.stderr.write(`${JSON.stringify({ level, time: new Date().toISOString(), msg, ...o })}\n`);
}
