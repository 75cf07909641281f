/** The built timeline the bench serves: apps/web/dist when it is newer than its sources, else a fresh build. */
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const ROOT = join(import.meta.dirname, "..");
const WEB = join(ROOT, "apps", "web");

function newestMtime(path: string): number {
  const st = statSync(path);
  if (!st.isDirectory()) return st.mtimeMs;
  return readdirSync(path).reduce((m, name) => Math.max(m, newestMtime(join(path, name))), st.mtimeMs);
}

/** apps/web/dist when it is newer than the sources; otherwise a fresh build into a temp dir (dist is left alone). */
export function webDist(log: (s: string) => void): { dir: string; built: boolean } {
  const dist = join(WEB, "dist");
  const sources = Math.max(
    newestMtime(join(WEB, "src")),
    newestMtime(join(WEB, "index.html")),
    newestMtime(join(ROOT, "shared", "src")),
  );
  const fresh = (f: string) => existsSync(join(dist, f)) && statSync(join(dist, f)).mtimeMs >= sources;
  if (fresh("index.html") && fresh("share.html")) return { dir: dist, built: false };
  const out = mkdtempSync(join(tmpdir(), "hopscope-bench-web-"));
  log(`bench: ui: apps/web/dist is missing or older than its sources; building into ${out}`);
  for (const [config, dir] of [
    ["vite.config.ts", out],
    ["vite.share.config.ts", out],
    ["vite.audience.config.ts", join(out, "audience")],
  ] as const) {
    execFileSync(
      process.execPath,
      [
        join(ROOT, "node_modules", "vite", "bin", "vite.js"),
        "build",
        "--config",
        join(WEB, config),
        "--outDir",
        dir,
        "--logLevel",
        "error",
      ],
      {
        cwd: ROOT,
        stdio: ["ignore", "ignore", "inherit"],
      },
    );
  }
  return { dir: out, built: true };
}
