/**
 * The one logger shape of every app (pino-compatible, so a real pino could be dropped in): one JSON line
 * per event on stderr, stdout left to whoever runs us. Injected everywhere, so tests stay silent.
 */
export interface Logger {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
  debug?(obj: object, msg: string): void;
}

export const silentLogger: Logger = { info() {}, warn() {}, error() {} };

/** A logger writing `{"level","time","app","msg",...}` lines to stderr; Errors keep their stack. */
export function stderrLogger(app: string): Logger {
  const write = (level: string, obj: object, msg: string) => {
    const fields = Object.fromEntries(
      Object.entries(obj).map(([k, v]) => [k, v instanceof Error ? { message: v.message, stack: v.stack } : v]),
    );
    process.stderr.write(`${JSON.stringify({ level, time: new Date().toISOString(), app, msg, ...fields })}\n`);
  };
  return {
    info: (obj, msg) => write("info", obj, msg),
    warn: (obj, msg) => write("warn", obj, msg),
    error: (obj, msg) => write("error", obj, msg),
  };
}
