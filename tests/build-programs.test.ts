/**
 * `npm start` runs the apps as built and builds only what is stale: in a copy of the sources (node_modules
 * linked, the UI stood in by a fresh dist/ so only the programs are in question), a warm start builds
 * nothing; after one app's source changes, the next start rebuilds that app alone, and runs the new build.
 */
import { cp, mkdir, mkdtemp, readFile, rm, stat, symlink, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { builtFile, ensureBuilt, REPO_ROOT } from "../scripts/build/programs";
import { groupGone, launchUntilOpen, type Launched } from "./support/launcher";

const COPIED = ["package.json", "tsconfig.json", "tsconfig.base.json", "scripts", "shared", "nodekit"];
const APPS = ["mcp-server", "host", "model-sim", "proxy"];
const SKIP = /(^|\/)(node_modules|dist|test)(\/|$)/;

let dir: string;
let copy: string;
const running: Launched[] = [];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "hopscope-build-"));
  copy = join(dir, "checkout");
  const filter = (src: string) => !SKIP.test(src.slice(REPO_ROOT.length));
  for (const part of [...COPIED, ...APPS.map((a) => join("apps", a))])
    await cp(join(REPO_ROOT, part), join(copy, part), { recursive: true, filter });
  await symlink(join(REPO_ROOT, "node_modules"), join(copy, "node_modules"));
  // A UI that counts as built: the timeline is not what this test is about (its sources are not copied).
  await mkdir(join(copy, "apps", "web", "dist", "audience"), { recursive: true });
  for (const f of ["index.html", "share.html", "audience/audience.html"])
    await writeFile(join(copy, "apps", "web", "dist", f), "<html></html>");
}, 60_000);

afterAll(async () => {
  for (const l of running) if (l.child.pid && !groupGone(l.child.pid)) process.kill(-l.child.pid, "SIGKILL");
  await rm(dir, { recursive: true, force: true });
});

/** `npm start` in the copy until "Open http://…"; then Ctrl-C, and its output. */
async function startOnce(): Promise<string[]> {
  const { launched } = await launchUntilOpen(dir, copy);
  running.push(launched);
  process.kill(-launched.child.pid!, "SIGINT");
  await launched.exited;
  return launched.stdout;
}

const mtime = async (name: Parameters<typeof builtFile>[0]) => (await stat(builtFile(name, "main.ts", copy))).mtimeMs;

describe("the apps as built by npm start", () => {
  it(
    "are not rebuilt by a warm start; a changed app is rebuilt alone at the next start",
    { timeout: 400_000 },
    async () => {
      expect((await ensureBuilt(undefined, { root: copy })).sort()).toEqual([...APPS, "scripts"].sort());
      const before = { host: await mtime("host"), proxy: await mtime("proxy") };

      const warm = await startOnce();
      expect(warm.filter((l) => l.startsWith("building"))).toEqual([]);
      expect(await mtime("host")).toBe(before.host);

      // An edit to the host's source, a little in the future so no clock granularity hides it.
      const source = join(copy, "apps", "host", "src", "main.ts");
      await writeFile(source, `${await readFile(source, "utf8")}\nexport const edited = "the edited host";\n`);
      const later = new Date(Date.now() + 2000);
      await utimes(source, later, later);

      const next = await startOnce();
      expect(next.filter((l) => l.startsWith("building"))).toEqual(["building host …"]);
      expect(await readFile(builtFile("host", "main.ts", copy), "utf8")).toContain("the edited host");
      expect(await mtime("proxy")).toBe(before.proxy);
    },
  );

  it(
    "do not trust a launcher built by older build code: the sources run and everything is rebuilt",
    { timeout: 400_000 },
    async () => {
      await ensureBuilt(undefined, { root: copy });
      // A launcher that would misbehave if it ran, older than a change to the build code.
      const launcher = join(copy, "dist", "start.js");
      await writeFile(launcher, `throw new Error("the stale launcher ran");\n`);
      const past = new Date(Date.now() - 60_000);
      await utimes(launcher, past, past);
      const buildCode = join(copy, "scripts", "build", "bundle.ts");
      const later = new Date(Date.now() + 2000);
      await utimes(buildCode, later, later);

      const out = await startOnce();
      expect(out.join("\n")).not.toContain("the stale launcher ran");
      const building = out.filter((l) => l.startsWith("building"));
      expect(building).toHaveLength(1);
      for (const name of [...APPS, "scripts"]) expect(building[0]).toContain(name);
      expect(await readFile(launcher, "utf8")).not.toContain("the stale launcher ran");
    },
  );
});
