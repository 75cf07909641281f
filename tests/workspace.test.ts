/**
 * The workspace's shape: every package exports only files that exist, shared/ (browser-pure) never reaches
 * for the Node-only nodekit/, and the apps never import each other (they talk over the wire).
 */
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";

const root = join(import.meta.dirname, "..");
const rootManifest = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as {
  workspaces: string[];
  scripts: Record<string, string>;
};
const packages = rootManifest.workspaces
  .flatMap((w) =>
    w.endsWith("/*") ? readdirSync(join(root, w.slice(0, -2))).map((d) => `${w.slice(0, -2)}/${d}`) : [w],
  )
  .filter((dir) => existsSync(join(root, dir, "package.json")));

function sources(dir: string): string[] {
  return readdirSync(join(root, dir), { recursive: true, encoding: "utf8" })
    .filter((f) => /\.(ts|tsx|mjs)$/.test(f) && !f.includes("node_modules"))
    .map((f) => join(root, dir, f));
}

describe("workspace packages", () => {
  it("export only what exists", () => {
    const problems: string[] = [];
    for (const dir of packages) {
      const manifest = JSON.parse(readFileSync(join(root, dir, "package.json"), "utf8")) as {
        exports?: Record<string, string>;
      };
      for (const [key, target] of Object.entries(manifest.exports ?? {})) {
        const path = join(root, dir, target);
        // A pattern export ("./*": "./src/*.ts") needs its folder; a plain one its file.
        const ok = target.includes("*") ? existsSync(dirname(path.split("*")[0]! + "x")) : existsSync(path);
        if (!ok) problems.push(`${dir}: "${key}" → ${target} does not exist`);
      }
    }
    expect(packages).toEqual(expect.arrayContaining(["shared", "nodekit", "apps/proxy"]));
    expect(problems).toEqual([]);
  });

  it("shared/ stays browser-pure: it never imports nodekit/ (nor node:*, which its tsconfig refuses)", () => {
    const offenders = sources("shared/src").filter((f) =>
      /from "@hopscope\/nodekit|from "node:/.test(readFileSync(f, "utf8")),
    );
    expect(offenders).toEqual([]);
  });

  it("apps never import each other", () => {
    const apps = readdirSync(join(root, "apps"));
    const problems: string[] = [];
    for (const app of apps) {
      for (const f of sources(`apps/${app}/src`)) {
        const text = readFileSync(f, "utf8");
        for (const other of apps)
          if (other !== app && new RegExp(`from "(@hopscope/${other}|\\.\\./\\.\\./${other})\\b`).test(text))
            problems.push(`${f} imports ${other}`);
      }
    }
    expect(problems).toEqual([]);
  });

  it("npm test runs the type check, lint and the tests", () => {
    expect(rootManifest.scripts.test).toMatch(/typecheck.*lint.*vitest run/);
    expect(readFileSync(join(root, "eslint.config.js"), "utf8")).toMatch(/"max-lines": \["error", \{ max: 400 \}\]/);
  });
});
