/** Builds the timeline (apps/web) when its dist/ is missing or older than its sources, so `npm start` always serves the current UI. */
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { isFresh } from "../build/freshness.mjs";

/** Returns true when it built. */
export function ensureUiBuilt(root: string, log: (line: string) => void): boolean {
  const web = join(root, "apps", "web");
  const built = ["index.html", "share.html", join("audience", "audience.html")].map((f) => join(web, "dist", f));
  if (isFresh(built, [join(web, "src"), join(root, "shared", "src")])) return false;
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
