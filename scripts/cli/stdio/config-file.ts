/**
 * A host's config file as bytes that `wrap --config` / `unwrap` must give back untouched except for the
 * one entry they own: its encoding (a file that is not valid UTF-8 is edited as Latin-1 text, one
 * character per byte, so every byte round-trips), a byte-order mark, its mode and owner, and a symbolic
 * link (the link's target is edited; the link stays a link). Writes are atomic: a temporary file beside
 * the target, flushed, then renamed over it, and removed if anything fails on the way.
 */
import { constants } from "node:fs";
import { link, lstat, open, readFile, realpath, rename, stat, unlink } from "node:fs/promises";
import { basename, dirname, join } from "node:path";

/** A refusal or failure told to the user as one line; nothing was changed when it is thrown. */
export class ConfigError extends Error {}

const BOM = "\ufeff";

export interface ConfigFile {
  /** The path the user named (a link, when it is one). */
  path: string;
  /** The file that is read and replaced: the link's target, or the path itself. */
  target: string;
  /** The text to edit: decoded without its BOM. */
  text: string;
  /** Whether the text is Latin-1 (one character per byte) because the bytes are not valid UTF-8. */
  latin1: boolean;
  bom: boolean;
  mode: number;
  uid: number;
  gid: number;
}

/** Reads `path` (following a link) for editing; refuses a file that cannot be written back. */
export async function readConfigFile(path: string, forceLatin1 = false): Promise<ConfigFile> {
  const target = await resolveTarget(path);
  const [bytes, info] = await Promise.all([readFile(target), stat(target)]).catch((err: unknown) => {
    throw fsError(err, `read ${path}`);
  });
  if ((info.mode & 0o222) === 0) {
    throw new ConfigError(
      `${path} is read-only (mode ${octal(info.mode)}); nothing was changed. Make it writable first (chmod u+w ${path}) if hopscope may edit it`,
    );
  }
  const latin1 = forceLatin1 || !isUtf8(bytes);
  let text = latin1 ? bytes.toString("latin1") : bytes.toString("utf8");
  const bom = !latin1 ? text.startsWith(BOM) : text.startsWith("\u00ef\u00bb\u00bf");
  if (bom) text = text.slice(latin1 ? 3 : 1);
  return { path, target, text, latin1, bom, mode: info.mode & 0o7777, uid: info.uid, gid: info.gid };
}

/** True when the bytes are valid UTF-8. */
export function isUtf8(bytes: Uint8Array): boolean {
  try {
    new TextDecoder("utf-8", { fatal: true }).decode(bytes);
    return true;
  } catch {
    return false;
  }
}

/** A value to insert into the file's text, in the file's own text form (UTF-8 bytes seen as Latin-1). */
export function inFileText(file: Pick<ConfigFile, "latin1">, value: string): string {
  return file.latin1 ? Buffer.from(value, "utf8").toString("latin1") : value;
}

/** The bytes of `text` as the file keeps them: its encoding and its BOM. */
export function configBytes(file: Pick<ConfigFile, "latin1" | "bom">, text: string): Buffer {
  const body = Buffer.from(text, file.latin1 ? "latin1" : "utf8");
  return file.bom ? Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), body]) : body;
}

/**
 * Writes `bytes` to `dest` atomically, with the mode and owner given: a host reading the file sees the old
 * or the new one, never a part. `exclusive` refuses to replace an existing file.
 */
export async function writeAtomically(
  dest: string,
  bytes: Uint8Array,
  like: Pick<ConfigFile, "mode" | "uid" | "gid">,
  exclusive = false,
): Promise<void> {
  const tmp = join(dirname(dest), `.${basename(dest)}.hopscope-tmp-${process.pid}`);
  try {
    const handle = await open(tmp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, like.mode);
    try {
      await handle.chmod(like.mode); // the umask narrowed the mode open() was given
      if (process.getuid?.() === 0) await handle.chown(like.uid, like.gid);
      await handle.writeFile(bytes);
      await handle.sync();
    } finally {
      await handle.close();
    }
    // A link fails when the name is taken, so an exclusive write never replaces a file that appeared meanwhile.
    if (exclusive) await link(tmp, dest);
    else await rename(tmp, dest);
  } catch (err) {
    throw fsError(err, `write ${dest}`);
  } finally {
    await unlink(tmp).catch(() => undefined); // gone after a rename; after a link or a failure, ours to remove
  }
}

export async function exists(path: string): Promise<boolean> {
  try {
    await lstat(path);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return false;
    throw fsError(err, `look at ${path}`);
  }
}

export async function removeFile(path: string, outcome: string): Promise<void> {
  await unlink(path).catch((err: unknown) => {
    throw fsError(err, `remove ${path}`, outcome);
  });
}

async function resolveTarget(path: string): Promise<string> {
  try {
    return await realpath(path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") {
      throw new ConfigError(`${path} does not exist; see the README for where each host keeps its config`);
    }
    throw fsError(err, `read ${path}`);
  }
}

const REASONS: Record<string, string> = {
  EACCES: "permission denied",
  EPERM: "operation not permitted",
  ENOSPC: "no space left on the device",
  EDQUOT: "disk quota exceeded",
  EROFS: "the file system is read-only",
  EISDIR: "it is a directory",
  ENOTDIR: "a part of the path is not a directory",
  EMFILE: "too many open files",
  EIO: "an input/output error",
};

/** An error of the file system as one line, saying what was being done and that nothing changed. */
export function fsError(err: unknown, doing: string, outcome = "the config was not changed"): Error {
  if (err instanceof ConfigError) return err;
  const code = (err as NodeJS.ErrnoException).code;
  if (!code) return err as Error;
  return new ConfigError(`could not ${doing}: ${REASONS[code] ?? code} (${code}); ${outcome}`);
}

function octal(mode: number): string {
  return `0${(mode & 0o777).toString(8)}`;
}
