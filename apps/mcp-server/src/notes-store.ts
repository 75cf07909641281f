/**
 * The notes file and the five operations on it. Every operation runs through one promise queue, so
 * mutations never interleave (200 concurrent appends leave 200 lines) and a read never sees a write
 * half done; every write is atomic (writeFileAtomic), and each read-modify-write holds the file's lock
 * (@hopscope/nodekit/file-lock), which the recorder's reset takes too, so neither undoes the other. The size cap refuses growth past `maxBytes`
 * but still lets an oversized file shrink.
 */
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import { withFileLock } from "@hopscope/nodekit/file-lock";
import { writeFileAtomic } from "./atomic-write";
import { NotesError, decodeNotes, textProblem } from "./text-check";

export interface NotesStoreOptions {
  path: string;
  maxBytes: number;
}

export class NotesStore {
  readonly path: string;
  readonly maxBytes: number;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(opts: NotesStoreOptions) {
    this.path = opts.path;
    this.maxBytes = opts.maxBytes;
  }

  /** Create the file (empty) and its folder when missing; never truncates an existing file. */
  async ensureFile(): Promise<void> {
    await mkdir(dirname(this.path), { recursive: true });
    await writeFile(this.path, "", { flag: "a" });
  }

  read(): Promise<string> {
    return this.serial(() => this.load());
  }

  write(content: string): Promise<void> {
    return this.mutate(() => content, "content", false);
  }

  /** Adds `content` as a line: a missing final newline is added first, and the line ends with "\n". */
  append(content: string): Promise<void> {
    return this.mutate((old) => {
      const sep = old.length > 0 && !old.endsWith("\n") ? "\n" : "";
      return `${old}${sep}${content}${content.endsWith("\n") ? "" : "\n"}`;
    }, "content");
  }

  /** Replaces every occurrence of `search`; returns how many there were (0 is reported as a tool error). */
  update(search: string, replace: string): Promise<number> {
    let count = 0;
    return this.mutate((old) => {
      count = old.split(search).length - 1;
      if (count === 0) {
        throw new NotesError(
          `Search text not found: ${JSON.stringify(search)} is not in the notes file. Call read to see the exact text, then retry update with a search string copied from it.`,
        );
      }
      return old.split(search).join(replace);
    }, "replace").then(() => count);
  }

  clear(): Promise<void> {
    return this.mutate(() => "", "content", false);
  }

  private async load(): Promise<string> {
    return decodeNotes(new Uint8Array(await readIfPresent(this.path)), this.path);
  }

  /**
   * `usesOld: false` (write, clear) skips decoding the current file, so a file broken by someone else
   * (not UTF-8) can still be replaced or emptied.
   */
  private mutate(next: (old: string) => string, param: string, usesOld = true): Promise<void> {
    return this.serial(() => withFileLock(this.path, () => this.rewrite(next, param, usesOld)));
  }

  private async rewrite(next: (old: string) => string, param: string, usesOld: boolean): Promise<void> {
    const old = usesOld ? await this.load() : "";
    const oldSize = usesOld ? new TextEncoder().encode(old).byteLength : (await readIfPresent(this.path)).byteLength;
    const text = next(old);
    const problem = textProblem(text);
    if (problem)
      throw new NotesError(
        `Refused: the text is not plain UTF-8 text, ${problem}. Param (${param}) must be plain text.`,
      );
    const bytes = new TextEncoder().encode(text);
    if (bytes.byteLength > this.maxBytes && bytes.byteLength > oldSize) {
      throw new NotesError(
        `Refused: the notes file would grow to ${bytes.byteLength} bytes, over its ${this.maxBytes}-byte limit. Shorten the content, or free space first with update or clear.`,
      );
    }
    await writeFileAtomic(this.path, bytes);
  }

  /** Run `op` after every earlier operation settles; a failure does not block later ones. */
  private serial<T>(op: () => Promise<T>): Promise<T> {
    const run = this.queue.then(op);
    // The caller gets `run`'s rejection; the queue's tail only needs to settle so the next op runs.
    this.queue = run.catch(() => undefined);
    return run;
  }
}

/** A notes file deleted while the server runs reads as empty; the next write creates it again. */
async function readIfPresent(path: string): Promise<Uint8Array> {
  try {
    return new Uint8Array(await readFile(path));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return new Uint8Array(0);
    throw err;
  }
}
