/**
 * Bundles one program (an app, the CLI) ahead of time with esbuild, so a start is `node dist/….js`: no
 * TypeScript loader, no transpiling at every start. Our workspaces (@hopscope/*, TypeScript sources) are
 * bundled in; every other package stays external and is loaded from node_modules as usual (better-sqlite3's
 * native addon among them).
 *
 * The output mirrors the source folder at the same depth (apps/proxy/src/recording/thread.ts →
 * apps/proxy/dist/recording/thread.js), and each module's `import.meta.url` is rewritten to the URL its
 * own output would have: paths relative to a module (the repository root, the web dist, a data folder) resolve
 * from the built files as from the sources. A file a module names with `new URL(<relative .ts path>, import.meta.url)`
 * (a worker thread's entry) is bundled as an entry of its own beside it, and the name is given its .js.
 */
import { chmod, mkdir, readdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { dirname, extname, join, relative, resolve } from "node:path";
import type { Plugin } from "esbuild";

export interface BundleSpec {
  /** The source folder (absolute); its files are mirrored into `outdir`. */
  base: string;
  /** Where the built files go (absolute), at the same depth as `base`. */
  outdir: string;
  /** Entry files, relative to `base`. */
  entries: string[];
  /** Entries that are commands (a bin): given a `#!` line's mode, executable. */
  executable?: string[];
  /**
   * Modules an entry imports dynamically become chunks of their own (beside the entry), loaded only when
   * used: a CLI command then loads its own code and packages, not every command's.
   */
  split?: boolean;
}

/** A `new URL("<relative .ts/.mts/.mjs file>", import.meta.url)`: a program file loaded at run time. */
const CODE_URL = /new URL\((["'])(\.{1,2}\/[^"'`]+?)\.(ts|mts|mjs)\1,\s*import\.meta\.url\)/g;
/** A bare specifier (a package or a node: built-in), not a relative or absolute path. */
const BARE = /^[^./]/;
const PATH_IMPORTS = `import { fileURLToPath as __hsPath } from "node:url"; import { dirname as __hsDirname } from "node:path";`;

/** The output path of a source file under `base`. */
export function outputOf(spec: BundleSpec, source: string): string {
  const rel = relative(spec.base, source);
  const ext = extname(rel);
  return join(spec.outdir, rel.slice(0, rel.length - ext.length) + (ext === ".mjs" ? ".mjs" : ".js"));
}

/** Builds every entry and the program files they name, each bundle written whole or not at all. */
export async function bundle(spec: BundleSpec): Promise<void> {
  const esbuild = await import("esbuild");
  const queue = spec.entries.map((e) => resolve(spec.base, e));
  const done = new Set<string>();
  const outputs: { path: string; text: Uint8Array; entry: boolean }[] = [];
  while (queue.length > 0) {
    const entry = queue.shift() as string;
    if (done.has(entry)) continue;
    done.add(entry);
    const outfile = outputOf(spec, entry);
    const result = await esbuild.build({
      entryPoints: [entry],
      // The entry and its chunks in one folder, so a module's mirrored URL is the same from any of them.
      outdir: dirname(outfile),
      entryNames: "[name]",
      outExtension: { ".js": extname(outfile) },
      splitting: spec.split ?? false,
      bundle: true,
      platform: "node",
      format: "esm",
      target: "node20",
      write: false,
      logLevel: "silent",
      plugins: [mirrorPlugin(spec, outfile, (file) => queue.push(file))],
    });
    for (const f of result.outputFiles) {
      outputs.push({
        path: f.path,
        text: f.contents,
        entry: spec.entries.some((e) => resolve(spec.base, e) === entry),
      });
    }
  }
  // Program files first, the entries last: a reader that finds a fresh entry finds what it loads.
  outputs.sort((a, b) => Number(a.entry) - Number(b.entry));
  for (const o of outputs) await writeWhole(o.path, o.text, isExecutable(spec, o.path));
  await removeOthers(
    spec.outdir,
    outputs.map((o) => o.path),
  );
}

/** Files of earlier builds this one no longer writes (old chunks, a moved module's bundle), so none is run by mistake. */
async function removeOthers(outdir: string, written: string[]): Promise<void> {
  const keep = new Set(written);
  const files = await readdir(outdir, { recursive: true });
  for (const name of files) {
    const path = join(outdir, name);
    if (/\.m?js$/.test(name) && !keep.has(path)) await rm(path, { force: true });
  }
}

function isExecutable(spec: BundleSpec, path: string): boolean {
  return (spec.executable ?? []).some((e) => outputOf(spec, resolve(spec.base, e)) === path);
}

/** Written beside, then renamed: two builds at once, or a start reading while one writes, see whole files. */
async function writeWhole(path: string, text: Uint8Array, executable: boolean): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const tmp = `${path}.${process.pid}.tmp`;
  await writeFile(tmp, text);
  if (executable) await chmod(tmp, 0o755);
  await rename(tmp, path);
}

/**
 * Our workspaces bundled, other packages external; in each module under `base`, `import.meta.url` becomes
 * its mirrored output's URL, and the program files it names are queued as entries (their names given .js).
 * A module outside `base` (shared/, nodekit/) keeps its source file's URL.
 */
function mirrorPlugin(spec: BundleSpec, outfile: string, found: (file: string) => void): Plugin {
  const urlOf = (target: string) => {
    const rel = relative(dirname(outfile), target).split("\\").join("/");
    return `new URL(${JSON.stringify(rel.startsWith(".") ? rel : `./${rel}`)}, import.meta.url).href`;
  };
  return {
    name: "hopscope-mirror",
    setup(build) {
      build.onResolve({ filter: BARE }, (args) =>
        args.path.startsWith("@hopscope/") ? undefined : { path: args.path, external: true },
      );
      build.onLoad({ filter: /\.(ts|mts|mjs|js)$/ }, async (args) => {
        if (args.path.includes("/node_modules/")) return undefined;
        let text = await readFile(args.path, "utf8");
        if (!/import\.meta\.(url|dirname|filename)/.test(text)) return undefined;
        const inBase = !relative(spec.base, args.path).startsWith("..");
        if (inBase) {
          text = text.replace(CODE_URL, (_m, q: string, rel: string, ext: string) => {
            const file = resolve(dirname(args.path), `${rel}.${ext}`);
            found(file);
            return `new URL(${q}${rel}.${ext === "mjs" ? "mjs" : "js"}${q}, import.meta.url)`;
          });
        }
        const url = urlOf(inBase ? outputOf(spec, args.path) : args.path);
        text = text
          .replace(/import\.meta\.url/g, url)
          .replace(/import\.meta\.filename/g, `__hsPath(${url})`)
          .replace(/import\.meta\.dirname/g, `__hsDirname(__hsPath(${url}))`);
        if (text.includes("__hsPath")) text = withImports(text, PATH_IMPORTS);
        return { contents: text, loader: args.path.endsWith("js") ? "js" : "ts", resolveDir: dirname(args.path) };
      });
    },
  };
}

/** `imports` put at the top of a module's text, after its `#!` line if it has one. */
function withImports(text: string, imports: string): string {
  if (!text.startsWith("#!")) return `${imports}\n${text}`;
  const eol = text.indexOf("\n");
  return `${text.slice(0, eol + 1)}${imports}\n${text.slice(eol + 1)}`;
}
