/** The host's logger: injected, so tests stay quiet and main.ts writes to stderr. */
export interface Logger {
  info(message: string): void;
  error(message: string, error?: unknown): void;
}

export const silentLogger: Logger = { info: () => {}, error: () => {} };

export const stderrLogger: Logger = {
  info: (message) => process.stderr.write(`[host] ${message}\n`),
  error: (message, error) =>
    process.stderr.write(`[host] ${message}${error instanceof Error ? `\n${error.stack ?? error.message}` : error === undefined ? "" : ` ${String(error)}`}\n`),
};
