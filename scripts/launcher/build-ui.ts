/** Builds the timeline (apps/web) when its dist/ is missing or older than its sources, so `npm start` always serves the current UI. */
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";

function newestMtime(dir: string): number {
  let newest = 0;
  if (!existsSync(dir)) return newest;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === "node_modules" || entry.name === "dist") continue;
    const p = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(p) : statSync(p).mtimeMs);
  }
  return newest;
}

/** Returns true when it built. */
export function ensureUiBuilt(root: string, log: (line: string) => void): boolean {
  const web = join(root, "apps", "web");
  const index = join(web, "dist", "index.html");
  const sources = Math.max(newestMtime(join(web, "src")), newestMtime(join(root, "shared", "src")));
  const built = [index, join(web, "dist", "share.html"), join(web, "dist", "audience", "audience.html")];
  if (built.every((f) => existsSync(f) && statSync(f).mtimeMs >= sources)) return false;
  log("building the timeline UI (apps/web) …");
  execFileSync("npm", ["run", "-s", "build", "-w", "apps/web"], { cwd: root, stdio: ["ignore", "ignore", "inherit"] });
  return true;
}
