/**
 * `wrap --config <file> --server <name>` and `unwrap --config <file> --server <name>`: the file side of
 * wrap-config.ts. `wrap` keeps the file's exact bytes in a backup beside it (one per server) and writes
 * the edited config atomically; `unwrap` writes the backup's bytes back when the file is as `wrap` left
 * it, and otherwise (the host or you changed it since) restores only that entry, keeping the rest.
 */
import { readFile, rename, unlink, writeFile } from "node:fs/promises";
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { ConfigError, restoreEntry, wrapEntry, type TapCommand } from "./wrap-config";

/** node + the tsx loader + scripts/hopscope.ts, all by absolute path: what the host will launch. */
export function tapCommand(): TapCommand {
  const cli = fileURLToPath(new URL("../../hopscope.ts", import.meta.url));
  return { command: process.execPath, args: ["--import", import.meta.resolve("tsx"), cli] };
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
  try {
    const message = verb === "wrap" ? await wrapFile(path, server) : await unwrapFile(path, server);
    process.stderr.write(`hopscope ${verb}: ${message}\n`);
    return 0;
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    process.stderr.write(`hopscope ${verb}: ${err.message}\n`);
    return 1;
  }
}

export async function wrapFile(path: string, server: string, tap = tapCommand()): Promise<string> {
  const text = await readText(path);
  const backup = backupPath(path, server);
  if (await exists(backup))
    throw new ConfigError(`${backup} already exists: "${server}" was wrapped before; run hopscope unwrap first`);
  const wrapped = wrapEntry(text, server, tap, path);
  await writeFile(backup, text, { flag: "wx" });
  await replaceFile(path, wrapped);
  return `"${server}" in ${path} now runs through the stdio tap (backup: ${backup}); restart the host to use it`;
}

export async function unwrapFile(path: string, server: string, tap = tapCommand()): Promise<string> {
  const backup = backupPath(path, server);
  if (!(await exists(backup)))
    throw new ConfigError(`no backup ${backup}: "${server}" in ${path} was not wrapped by hopscope wrap`);
  const [text, original] = await Promise.all([readText(path), readText(backup)]);
  let untouched = false;
  try {
    untouched = wrapEntry(original, server, tap, backup) === text;
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
  }
  await replaceFile(path, untouched ? original : restoreEntry(text, original, server, path));
  await unlink(backup);
  return untouched
    ? `${path} is back to its bytes before wrap`
    : `"${server}" in ${path} runs its own command again (the file changed since wrap, so only that entry was restored)`;
}

async function readText(path: string): Promise<string> {
  try {
    return await readFile(path, "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT")
      throw new ConfigError(`${path} does not exist; see the README for where each host keeps its config`);
    throw err;
  }
}

async function exists(path: string): Promise<boolean> {
  try {
    await readFile(path);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return false;
    throw err;
  }
}

/** Written beside it, then renamed over it: a host reading the config sees the old or the new file. */
async function replaceFile(path: string, text: string): Promise<void> {
  const tmp = `${path}.hopscope-tmp-${process.pid}`;
  await writeFile(tmp, text);
  await rename(tmp, path);
}

function option(args: string[], name: string): string | undefined {
  const i = args.indexOf(name);
  return i === -1 ? undefined : args[i + 1];
}
