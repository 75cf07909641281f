/**
 * The programs hopscope builds ahead of time (each still its own process): the four apps, and the `hopscope`
 * CLI with the launcher (`npm start`), bundled into gitignored dist/ folders and rebuilt only when a file they are built from changed
 * (freshness.mjs, the rule the UI's build uses too). `npm start` runs the built apps with plain `node`;
 * `npm run dev` keeps running the sources through tsx, reloading on change.
 */
import { fileURLToPath } from "node:url";
import { join } from "node:path";
import { bundle, outputOf, type BundleSpec } from "./bundle";
import { isFresh, newestMtime } from "./freshness.mjs";

/** scripts/build → the repository root. */
export const REPO_ROOT = fileURLToPath(new URL("../../", import.meta.url));

export interface Program {
  name: string;
  /** Source folder, relative to the root. */
  base: string;
  /** Output folder, relative to the root, at the same depth as `base`. */
  outdir: string;
  entries: string[];
  executable?: string[];
  split?: boolean;
}

/**
 * What every program is built from besides its own folder: the workspaces it may bundle in, and this build
 * code itself (a changed bundling rule makes every earlier output suspect). A change there rebuilds them all.
 */
const SHARED_SOURCES = ["shared/src", "nodekit/src", "scripts/build"];

export const PROGRAMS: Program[] = [
  {
    name: "mcp-server",
    base: "apps/mcp-server/src",
    outdir: "apps/mcp-server/dist",
    entries: ["main.ts", "stdio-main.ts"],
  },
  { name: "host", base: "apps/host/src", outdir: "apps/host/dist", entries: ["main.ts"] },
  { name: "model-sim", base: "apps/model-sim/src", outdir: "apps/model-sim/dist", entries: ["main.ts"] },
  { name: "proxy", base: "apps/proxy/src", outdir: "apps/proxy/dist", entries: ["main.ts"] },
  {
    name: "scripts",
    base: "scripts",
    outdir: "dist",
    entries: ["hopscope.ts", "start.ts"],
    executable: ["hopscope.ts"],
    split: true,
  },
];

export type ProgramName = "mcp-server" | "host" | "model-sim" | "proxy" | "scripts";

function program(name: ProgramName): Program {
  const p = PROGRAMS.find((x) => x.name === name);
  if (!p) throw new Error(`no program named ${name}`);
  return p;
}

function specOf(p: Program, root: string): BundleSpec {
  return {
    base: join(root, p.base),
    outdir: join(root, p.outdir),
    entries: p.entries,
    ...(p.executable ? { executable: p.executable } : {}),
    ...(p.split ? { split: true } : {}),
  };
}

/** The built file of an entry (absolute), e.g. builtFile("proxy", "main.ts") → …/apps/proxy/dist/main.js. */
export function builtFile(name: ProgramName, entry: string, root = REPO_ROOT): string {
  const spec = specOf(program(name), root);
  return outputOf(spec, join(spec.base, entry));
}

/** True when the program's built entries are newer than every file they are built from. */
export function isBuilt(name: ProgramName, root = REPO_ROOT, newest = newestMtime): boolean {
  const p = program(name);
  const spec = specOf(p, root);
  const outputs = p.entries.map((e) => outputOf(spec, join(spec.base, e)));
  return isFresh(
    outputs,
    [p.base, ...SHARED_SOURCES].map((d) => join(root, d)),
    newest,
  );
}

/**
 * Builds the named programs that are stale (all of them by default); returns the names it built. `log`
 * hears one line before any building starts.
 */
export async function ensureBuilt(
  names: readonly ProgramName[] = PROGRAMS.map((p) => p.name as ProgramName),
  { root = REPO_ROOT, log = () => {} }: { root?: string; log?: (line: string) => void } = {},
): Promise<ProgramName[]> {
  // shared/ and nodekit/ are walked once, not once per program.
  const seen = new Map<string, number>();
  const newest = (dir: string) => seen.get(dir) ?? seen.set(dir, newestMtime(dir)).get(dir)!;
  const stale = names.filter((n) => !isBuilt(n, root, newest));
  if (stale.length === 0) return [];
  log(`building ${stale.join(", ")} …`);
  await Promise.all(stale.map((n) => bundle(specOf(program(n), root))));
  return stale;
}
