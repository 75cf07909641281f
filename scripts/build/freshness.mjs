/**
 * Whether built files are current: each exists and is at least as new as the newest file under the folders
 * it is built from. The one staleness rule of every ahead-of-time build (the apps, the CLI, the launcher, the
 * UI): a checkout, an edit or a pull gives the changed files a newer mtime, so the next start builds again.
 * Plain JavaScript so that scripts/launch.mjs, which runs before anything is built, applies the same rule.
 */
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";

/**
 * The newest mtime of the files under `dir` (node_modules and dist/ left out); 0 for a missing folder.
 * @param {string} dir
 * @returns {number}
 */
export function newestMtime(dir) {
  let newest = 0;
  if (!existsSync(dir)) return newest;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === "node_modules" || entry.name === "dist") continue;
    const p = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(p) : statSync(p).mtimeMs);
  }
  return newest;
}

/**
 * True when every one of `outputs` exists and none is older than a file under `sourceDirs`. `newest` may
 * be a memo of newestMtime, for a caller that asks about several outputs built from the same folders.
 * @param {string[]} outputs
 * @param {string[]} sourceDirs
 * @param {(dir: string) => number} [newest]
 * @returns {boolean}
 */
export function isFresh(outputs, sourceDirs, newest = newestMtime) {
  const sources = Math.max(...sourceDirs.map((d) => newest(d)));
  return outputs.every((f) => existsSync(f) && statSync(f).mtimeMs >= sources);
}
