/**
 * A parent that stands in for its child (`wrap`, `notes-server`): the signals it gets go to the child, and
 * it ends the way the child ended, the same exit code, or killed by the same signal, so whoever launched
 * it (a host such as Claude Desktop) cannot tell the difference.
 */
import type { ChildProcess } from "node:child_process";
import { constants } from "node:os";

const FORWARDED: NodeJS.Signals[] = ["SIGINT", "SIGTERM", "SIGHUP", "SIGQUIT", "SIGUSR1", "SIGUSR2"];

/** Passes these signals on to the child while it runs; returns the function that stops doing so. */
export function forwardSignals(child: ChildProcess): () => void {
  const handlers = FORWARDED.map((signal) => {
    const handler = () => {
      child.kill(signal);
    };
    process.on(signal, handler);
    return [signal, handler] as const;
  });
  return () => {
    for (const [signal, handler] of handlers) process.off(signal, handler);
  };
}

/** The child's end as a promise of an exit code; a signal death is re-raised on this process. */
export function childExit(child: ChildProcess): Promise<number> {
  return new Promise((resolve, reject) => {
    child.once("error", reject);
    child.once("exit", (code, signal) => {
      if (signal) {
        // Die of the same signal (our own handlers are removed by then, so the default action runs).
        process.kill(process.pid, signal);
        resolve(128 + (constants.signals[signal] ?? 0));
      } else resolve(code ?? 0);
    });
  });
}
