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
  // Vite's warnings (chunk sizes, a PostCSS notice from inside Vite) are for whoever develops the UI, not for
  // a learner's first `npm start`, where they read as something gone wrong: shown only if the build fails.
  try {
    execFileSync("npm", ["run", "-s", "build", "-w", "apps/web"], {
      cwd: root,
      stdio: ["ignore", "ignore", "pipe"],
      maxBuffer: 16 * 1024 * 1024,
    });
  } catch (err) {
    const stderr = (err as { stderr?: Buffer }).stderr?.toString("utf8").trim() ?? "";
    throw new Error(
      `building the timeline UI failed (npm run build -w apps/web):\n${stderr || (err as Error).message}`,
      { cause: err },
    );
  }
  return true;
}
