/**
 * One writer at a time for a file shared by processes: the notes file is written by the MCP server (its
 * tools) and by the recorder (a reset), each reading it and replacing it by rename. Holding this lock
 * around a read-modify-write keeps one from undoing the other. It is a hidden lock folder beside the file
 * (`.<name>.lock`, proper-lockfile's scheme: mkdir is atomic on every local file system), refreshed every
 * second while held and taken over 2 s after its holder died (a killed server) and left it behind.
 */
import { basename, dirname, join } from "node:path";
import lockfile from "proper-lockfile";

export interface FileLockOptions {
  /** How long to wait for another holder before giving up (ms). */
  waitMs?: number;
}

export class FileLockTimeout extends Error {}

/** Runs `op` holding the lock of `file` (which need not exist); waits for another holder up to `waitMs`. */
export async function withFileLock<T>(file: string, op: () => Promise<T>, opts: FileLockOptions = {}): Promise<T> {
  const waitMs = opts.waitMs ?? 5_000;
  let release: () => Promise<void>;
  try {
    release = await lockfile.lock(file, {
      realpath: false,
      lockfilePath: join(dirname(file), `.${basename(file)}.lock`),
      stale: 2_000,
      // A holder whose refresh came late (a blocked event loop) finishes its write; the default throws.
      onCompromised: () => undefined,
      retries: { retries: Math.ceil(waitMs / 25), factor: 1, minTimeout: 25, maxTimeout: 25 },
    });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ELOCKED") {
      throw new FileLockTimeout(`${file} stayed locked by another writer for ${waitMs} ms`, { cause: err });
    }
    throw err;
  }
  try {
    return await op();
  } finally {
    await release().catch(() => undefined);
  }
}
