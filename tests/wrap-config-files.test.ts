/**
 * `wrap --config` / `unwrap` keep every byte of a user's config they do not own: a symbolic link stays a
 * link (its target is edited), bytes that are not UTF-8, a BOM and CRLF line ends come back as they were,
 * a private file stays private, a read-only one is refused, and what they cannot decide for the user
 * (duplicate keys, non-string args, a wrapped entry changed by hand) is refused in one line. A full disk
 * leaves the config, and no temporary file or empty backup, behind.
 */
import { execFile } from "node:child_process";
import {
  chmod,
  lstat,
  mkdir,
  mkdtemp,
  readFile,
  readdir,
  readlink,
  rm,
  stat,
  symlink,
  writeFile,
} from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { backupPath, unwrapFile, wrapFile } from "../scripts/cli/stdio/wrap-config-command";
import { HOPSCOPE_CLI, TSX } from "./support/stdio-host";

const run = promisify(execFile);
const TAP = { command: "/opt/node/bin/node", args: ["/opt/hopscope/hopscope.js"] };

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "hopscope-config-bytes-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const config = (eol = "\n") =>
  [
    "{",
    '  "mcpServers": {',
    '    "notes": { "command": "npx", "args": ["-y", "notes-server@1.0.0"] }',
    "  }",
    "}",
    "",
  ].join(eol);

async function roundTrip(name: string, bytes: Buffer): Promise<{ wrapped: Buffer; file: string }> {
  const file = path.join(dir, name);
  await writeFile(file, bytes);
  await wrapFile(file, "notes", TAP);
  const wrapped = await readFile(file);
  expect(await readFile(backupPath(file, "notes"))).toEqual(bytes);
  expect(await unwrapFile(file, "notes", { tap: TAP })).toMatch(/back to its bytes before wrap/);
  expect(await readFile(file)).toEqual(bytes);
  return { wrapped, file };
}

describe("wrap --config keeps the bytes it does not own", () => {
  it("edits a symbolic link's target and leaves the link a link, through wrap and unwrap", async () => {
    const real = path.join(dir, "dotfiles", "claude.json");
    await mkdir(path.dirname(real), { recursive: true });
    await writeFile(real, config());
    const link = path.join(dir, "claude_desktop_config.json");
    await symlink(real, link);
    await wrapFile(link, "notes", TAP);
    expect((await lstat(link)).isSymbolicLink()).toBe(true);
    expect(await readlink(link)).toBe(real);
    expect(await readFile(real, "utf8")).toContain('"wrap"');
    await unwrapFile(link, "notes", { tap: TAP });
    expect((await lstat(link)).isSymbolicLink()).toBe(true);
    expect(await readFile(real, "utf8")).toBe(config());
  });

  it("keeps bytes that are not UTF-8 exactly, and writes its own text as UTF-8", async () => {
    const latin = Buffer.concat([
      Buffer.from('{\n  "title": "caf'),
      Buffer.from([0xe9]),
      Buffer.from('",\n' + config().slice(2)),
    ]);
    const tap = { command: "/opt/nöde/bin/node", args: [] };
    const file = path.join(dir, "latin1.json");
    await writeFile(file, latin);
    await wrapFile(file, "notes", tap);
    const wrapped = await readFile(file);
    expect(wrapped.includes(Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x22]))).toBe(true);
    expect(wrapped.includes(Buffer.from("/opt/nöde/bin/node", "utf8"))).toBe(true);
    await unwrapFile(file, "notes", { tap });
    expect(await readFile(file)).toEqual(latin);
  });

  it("keeps a byte-order mark and CRLF line ends", async () => {
    const bom = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(config())]);
    const { wrapped } = await roundTrip("bom.json", bom);
    expect([...wrapped.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const crlf = await roundTrip("crlf.json", Buffer.from(config("\r\n")));
    expect(crlf.wrapped.toString("utf8").replace(/\r\n/g, "")).not.toContain("\n");
  });

  it("keeps a private config private: the file and its backup stay 0600", async () => {
    const file = path.join(dir, "private.json");
    await writeFile(file, config().replace('"args"', '"env": { "API_KEY": "sk-secret" }, "args"'));
    await chmod(file, 0o600);
    await wrapFile(file, "notes", TAP);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect((await stat(backupPath(file, "notes"))).mode & 0o777).toBe(0o600);
    await unwrapFile(file, "notes", { tap: TAP });
    expect((await stat(file)).mode & 0o777).toBe(0o600);
  });
});

describe("wrap --config refuses rather than guesses", () => {
  it("refuses a read-only config and changes nothing", async () => {
    const file = path.join(dir, "readonly.json");
    await writeFile(file, config());
    await chmod(file, 0o444);
    await expect(wrapFile(file, "notes", TAP)).rejects.toThrow(/is read-only \(mode 0444\); nothing was changed/);
    expect(await readFile(file, "utf8")).toBe(config());
    await expect(stat(backupPath(file, "notes"))).rejects.toThrow(/ENOENT/);
  });

  it("refuses a server named twice, and non-string args, naming what to fix", async () => {
    const file = path.join(dir, "twice.json");
    const twice = config().replace('"notes": {', '"notes": { "command": "old" },\n    "notes": {');
    await writeFile(file, twice);
    await expect(wrapFile(file, "notes", TAP)).rejects.toThrow(
      /has "notes" 2 times \(lines 3 and 4\); hosts use the last/,
    );
    expect(await readFile(file, "utf8")).toBe(twice);
    await writeFile(file, config().replace('"-y"', "3000"));
    await expect(wrapFile(file, "notes", TAP)).rejects.toThrow(/non-string argument \(args\[0\] is 3000\)/);
  });

  it("refuses to unwrap an entry changed by hand, saying what changed; --force restores it", async () => {
    const file = path.join(dir, "edited.json");
    await writeFile(file, config());
    await wrapFile(file, "notes", TAP);
    const edited = (await readFile(file, "utf8")).replace("notes-server@1.0.0", "notes-server@2.0.0");
    await writeFile(file, edited);
    await expect(unwrapFile(file, "notes", { tap: TAP })).rejects.toThrow(
      /was changed since wrap \(it now runs \["npx","-y","notes-server@2.0.0"\] through the tap; wrap left \["npx","-y","notes-server@1.0.0"\]\); nothing was changed\. Run unwrap --force/,
    );
    expect(await readFile(file, "utf8")).toBe(edited);
    expect(await readFile(backupPath(file, "notes"), "utf8")).toBe(config());
    await unwrapFile(file, "notes", { force: true, tap: TAP });
    expect(await readFile(file, "utf8")).toBe(config());
  });
});

const canMount = process.getuid?.() === 0 && process.platform === "linux";

describe.runIf(canMount)("wrap --config on a full disk", () => {
  it("says so in one line, and leaves the config, no backup and no temporary file", async () => {
    const disk = path.join(dir, "small-disk");
    await mkdir(disk);
    await run("mount", ["-t", "tmpfs", "-o", "size=64k", "tmpfs", disk]);
    try {
      const file = path.join(disk, "config.json");
      await writeFile(file, config());
      await writeFile(path.join(disk, "filler"), Buffer.alloc(60 * 1024 - 200)).catch(() => undefined);
      const cli = run(process.execPath, ["--import", TSX, HOPSCOPE_CLI, "wrap", "--config", file, "--server", "notes"]);
      const failed = await cli.then(
        () => null,
        (err: { code: number; stderr: string }) => err,
      );
      expect(failed?.code).toBe(1);
      expect(failed?.stderr.trim().split("\n")).toHaveLength(1);
      expect(failed?.stderr).toMatch(/no space left on the device \(ENOSPC\); the config was not changed/);
      expect(await readFile(file, "utf8")).toBe(config());
      expect((await readdir(disk)).sort()).toEqual(["config.json", "filler"]);
      await rm(path.join(disk, "filler"));
      await wrapFile(file, "notes", TAP);
      expect(await readFile(file, "utf8")).toContain('"wrap"');
    } finally {
      await run("umount", [disk]);
    }
  });
});
