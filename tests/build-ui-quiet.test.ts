/**
 * `npm start` builds the UI when it is stale; Vite's warnings (chunk sizes, a PostCSS notice from inside
 * Vite) filled a learner's first screen and read as a failure. They are kept back unless the build fails,
 * and then they are the error. Run in a child process over a stand-in workspace whose build prints a
 * warning (or fails), as the real one does.
 */
import { spawnSync } from "node:child_process";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";

const BUILD_UI = join(import.meta.dirname, "..", "scripts", "launcher", "build-ui.ts");
const TSX = join(import.meta.dirname, "..", "node_modules", ".bin", "tsx");
const roots: string[] = [];

async function workspace(build: string): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), "hopscope-build-ui-"));
  roots.push(root);
  await writeFile(join(root, "package.json"), JSON.stringify({ name: "ws", private: true, workspaces: ["apps/web"] }));
  await mkdir(join(root, "apps", "web", "src"), { recursive: true });
  await writeFile(join(root, "apps", "web", "src", "main.ts"), "export {};\n");
  await writeFile(join(root, "apps", "web", "build.cjs"), build);
  await writeFile(
    join(root, "apps", "web", "package.json"),
    JSON.stringify({ name: "@ws/web", private: true, scripts: { build: "node build.cjs" } }),
  );
  return root;
}

function ensure(root: string) {
  const code = `import { ensureUiBuilt } from ${JSON.stringify(BUILD_UI)}; try { ensureUiBuilt(${JSON.stringify(root)}, (l) => console.log(l)); } catch (e) { console.log("ERROR " + e.message); }`;
  return spawnSync(TSX, ["--eval", code], { encoding: "utf8", timeout: 60_000 });
}

const WRITES_DIST = `const fs = require("fs"); fs.mkdirSync("dist/audience", { recursive: true });
for (const f of ["dist/index.html", "dist/share.html", "dist/audience/audience.html"]) fs.writeFileSync(f, "x");`;

describe("building the UI on npm start", () => {
  afterAll(async () => {
    for (const r of roots) await rm(r, { recursive: true, force: true });
  });

  it("keeps a successful build's warnings off the screen", { timeout: 60_000 }, async () => {
    const root = await workspace(
      `console.error("(!) Some chunks are larger than 500 kB after minification."); ${WRITES_DIST}`,
    );
    const r = ensure(root);
    expect(r.stdout).toContain("building the timeline UI");
    expect(r.stdout).not.toContain("ERROR");
    expect(r.stderr).not.toContain("Some chunks are larger");
  });

  it("shows what a failed build printed, as the error", { timeout: 60_000 }, async () => {
    const root = await workspace(`console.error("src/App.tsx: Unexpected token"); process.exit(1);`);
    const r = ensure(root);
    expect(r.stdout).toMatch(
      /ERROR building the timeline UI failed \(npm run build -w apps\/web\):\nsrc\/App\.tsx: Unexpected token/,
    );
  });
});
