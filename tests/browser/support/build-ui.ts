/** Builds apps/web with Vite's API into a temp dir, so parallel test files never share one dist/. */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "vite";

const WEB_ROOT = fileURLToPath(new URL("../../../apps/web/", import.meta.url));

export async function buildUi(): Promise<{ dir: string; remove(): Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), "hopscope-web-"));
  await build({
    configFile: join(WEB_ROOT, "vite.config.ts"),
    root: WEB_ROOT,
    logLevel: "warn",
    build: { outDir: dir, emptyOutDir: true, sourcemap: false },
  });
  // The shared-page template (dist/share.html) for the HTML export, into the same folder.
  await build({
    configFile: join(WEB_ROOT, "vite.share.config.ts"),
    root: WEB_ROOT,
    logLevel: "warn",
    build: { outDir: dir, emptyOutDir: false },
  });
  // The audience viewer, served by the audience listener from dist/audience/.
  await build({
    configFile: join(WEB_ROOT, "vite.audience.config.ts"),
    root: WEB_ROOT,
    logLevel: "warn",
    build: { outDir: join(dir, "audience"), emptyOutDir: true, sourcemap: false },
  });
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) };
}
