/**
 * `wrap --config <file> --server <name>` and `unwrap --config <file> --server <name> [--force]`: the file
 * side of wrap-config.ts. `wrap` keeps the file's exact bytes in a backup beside it (one per server, with
 * the file's mode) and writes the edited config atomically; `unwrap` writes the backup's bytes back when
 * the file is as `wrap` left it, restores only that entry when the rest of the file changed since, and
 * refuses (unless `--force`) when the wrapped entry itself was changed, saying what changed. Every byte
 * they do not own is kept (config-file.ts); every refusal is one line and changes nothing.
 */
import { resolve } from "node:path";
import { builtFile, ensureBuilt } from "../../build/programs";
import {
  ConfigError,
  configBytes,
  exists,
  inFileText,
  readConfigFile,
  removeFile,
  writeAtomically,
  type ConfigFile,
} from "./config-file";
import { findEntry, restoreEntry, wrapEntry, wrappedCommand, type TapCommand } from "./wrap-config";

/**
 * node + the built CLI (dist/hopscope.js), both by absolute path: what the host will launch. Built, so the
 * tap adds a Node start to the server's, not a TypeScript loader's (a host may begin without a slow server).
 */
export function tapCommand(): TapCommand {
  return { command: process.execPath, args: [builtFile("scripts", "hopscope.ts")] };
}

export function backupPath(file: string, server: string): string {
  return `${file}.hopscope-backup.${encodeURIComponent(server)}`;
}

export async function wrapConfigCommand(verb: "wrap" | "unwrap", args: string[], usage: string): Promise<number> {
  const file = option(args, "--config");
  const server = option(args, "--server");
  if (!file || !server) {
    process.stderr.write(`hopscope ${verb}: give both --config <file> and --server <name>\n\n${usage}`);
    return 2;
  }
  const path = resolve(file);
  // The entry will name the built CLI: it must be there, and current, before a host launches it.
  if (verb === "wrap") await ensureBuilt(["scripts"]);
  try {
    const message =
      verb === "wrap"
        ? await wrapFile(path, server)
        : await unwrapFile(path, server, { force: args.includes("--force") });
    process.stderr.write(`hopscope ${verb}: ${message}\n`);
    return 0;
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    process.stderr.write(`hopscope ${verb}: ${err.message}\n`);
    return 1;
  }
}

export async function wrapFile(path: string, server: string, tap = tapCommand()): Promise<string> {
  const backup = backupPath(path, server);
  if (await exists(backup)) {
    throw new ConfigError(`${backup} already exists: "${server}" was wrapped before; run hopscope unwrap first`);
  }
  const file = await readConfigFile(path);
  const wrapped = wrapEntry(file.text, server, inFileTap(file, tap), path);
  const original = configBytes(file, file.text);
  await writeAtomically(backup, original, file, true);
  try {
    await writeAtomically(file.target, configBytes(file, wrapped), file);
  } catch (err) {
    await removeFile(backup, "the config was not changed");
    throw err;
  }
  return `"${server}" in ${path} now runs through the stdio tap (backup: ${backup}); restart the host to use it`;
}

export async function unwrapFile(
  path: string,
  server: string,
  opts: { force?: boolean; tap?: TapCommand } = {},
): Promise<string> {
  const backup = backupPath(path, server);
  if (!(await exists(backup))) {
    throw new ConfigError(`no backup ${backup}: "${server}" in ${path} was not wrapped by hopscope wrap`);
  }
  const [current, saved] = await readPair(path, backup);
  const was = findEntry(saved.text, server, backup);
  if (!opts.force) refuseChangedEntry(current.text, server, path, [was.command, ...was.args]);
  const untouched = sameAsWrapped(saved, current, server, inFileTap(saved, opts.tap ?? tapCommand()));
  const text = untouched ? saved.text : restoreEntry(current.text, saved.text, server, path);
  await writeAtomically(
    current.target,
    untouched ? configBytes(saved, saved.text) : configBytes(current, text),
    current,
  );
  await removeFile(backup, `the config is restored; remove ${backup} by hand`);
  return untouched
    ? `${path} is back to its bytes before wrap`
    : `"${server}" in ${path} runs its own command again (the file changed since wrap, so only that entry was restored)`;
}

/** The config and its backup, both read as Latin-1 when either is not UTF-8, so text moves between them intact. */
async function readPair(path: string, backup: string): Promise<[ConfigFile, ConfigFile]> {
  const [current, saved] = await Promise.all([readConfigFile(path), readConfigFile(backup)]);
  if (current.latin1 === saved.latin1) return [current, saved];
  return Promise.all([readConfigFile(path, true), readConfigFile(backup, true)]);
}

/** Refuses when the command the entry runs through the tap is no longer the one wrap put there. */
function refuseChangedEntry(text: string, server: string, path: string, original: string[]): void {
  const now = findEntry(text, server, path);
  const through = wrappedCommand(now);
  if (through && through.length === original.length && through.every((a, i) => a === original[i])) return;
  const says = through
    ? `runs ${JSON.stringify(through)} through the tap`
    : `runs ${JSON.stringify([now.command, ...now.args])}`;
  throw new ConfigError(
    `"${server}" in ${path} was changed since wrap (it now ${says}; wrap left ${JSON.stringify(original)}); nothing was changed. Run unwrap --force to put back the command from the backup anyway`,
  );
}

function sameAsWrapped(saved: ConfigFile, current: ConfigFile, server: string, tap: TapCommand): boolean {
  if (saved.bom !== current.bom) return false;
  try {
    return wrapEntry(saved.text, server, tap, saved.path) === current.text;
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    return false;
  }
}

function inFileTap(file: ConfigFile, tap: TapCommand): TapCommand {
  return { command: inFileText(file, tap.command), args: tap.args.map((a) => inFileText(file, a)) };
}

function option(args: string[], name: string): string | undefined {
  const i = args.indexOf(name);
  return i === -1 ? undefined : args[i + 1];
}
