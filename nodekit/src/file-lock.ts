/**
 * One writer at a time for a file shared by processes: the notes file is written by the MCP server (its
 * tools) and by the recorder (a reset), each reading it and replacing it by rename. Holding this lock
 * around a read-modify-write keeps one from undoing the other. It is a lock folder beside the file
 * (`<file>.lock`, proper-lockfile's scheme: mkdir is atomic on every local file system), refreshed while
 * held and taken over when its holder died and left it stale.
 */
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
      lockfilePath: `${file}.lock`,
      stale: 10_000,
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
