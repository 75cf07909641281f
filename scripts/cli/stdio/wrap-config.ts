/**
 * The host-config edit of `hopscope wrap --config`: one stdio server entry of a Claude Desktop, Cursor
 * (`mcpServers`) or VS Code (`servers`) JSON config gets its `command` and `args` replaced by the stdio
 * tap running the original command. Edited as text with jsonc-parser, so comments (VS Code allows
 * them), key order and formatting everywhere else are kept; the same edit run again gives the same bytes,
 * which is how `unwrap` knows the file is untouched since.
 */
import { ConfigError } from "./config-file";
import {
  applyEdits,
  findNodeAtLocation,
  modify,
  parse,
  parseTree,
  printParseErrorCode,
  type ParseError,
} from "jsonc-parser";

export interface TapCommand {
  /** The program that runs the tap: node, by absolute path (hosts launch servers with a bare PATH). */
  command: string;
  /** Arguments before `wrap -- <original command>`. */
  args: string[];
}

export interface Entry {
  key: "mcpServers" | "servers";
  command: string;
  args: string[];
}

/** The server entry `name` of the config text, checked to be a stdio one. */
export function findEntry(text: string, name: string, file: string): Entry {
  const errors: ParseError[] = [];
  const json = parse(text, errors, { allowTrailingComma: true }) as unknown;
  if (errors.length > 0) {
    const first = errors[0] as ParseError;
    throw new ConfigError(
      `${file} is not valid JSON (${printParseErrorCode(first.error)} at offset ${first.offset}); fix it first`,
    );
  }
  const root = typeof json === "object" && json !== null ? (json as Record<string, unknown>) : {};
  const key = ["mcpServers", "servers"].find((k) => typeof root[k] === "object" && root[k] !== null) as
    Entry["key"] | undefined;
  if (!key) throw new ConfigError(`${file} has no "mcpServers" (Claude Desktop, Cursor) or "servers" (VS Code) object`);
  refuseDuplicates(text, [key], file);
  refuseDuplicates(text, [key, name], file);
  const servers = root[key] as Record<string, unknown>;
  const entry = servers[name];
  if (typeof entry !== "object" || entry === null) {
    throw new ConfigError(
      `${file} has no server "${name}" in "${key}"; it has: ${Object.keys(servers).join(", ") || "none"}`,
    );
  }
  const e = entry as Record<string, unknown>;
  if (typeof e.url === "string" || (typeof e.type === "string" && e.type !== "stdio")) {
    throw new ConfigError(
      `server "${name}" is an HTTP server (${String(e.url ?? e.type)}): point its url at the recorder's MCP tap instead (http://127.0.0.1:7072/mcp with MCP_UPSTREAM set to it)`,
    );
  }
  if (typeof e.command !== "string") throw new ConfigError(`server "${name}" in ${file} has no "command" to wrap`);
  return { key, command: e.command, args: stringArgs(e.args, name, file) };
}

/** The entry's args, refused unless every one is a string (a host would pass the others on in its own way). */
function stringArgs(args: unknown, name: string, file: string): string[] {
  if (args === undefined) return [];
  if (!Array.isArray(args)) throw new ConfigError(`server "${name}" in ${file} has "args" that is not a list`);
  const bad = args.findIndex((a) => typeof a !== "string");
  if (bad !== -1) {
    throw new ConfigError(
      `server "${name}" in ${file} has a non-string argument (args[${bad}] is ${JSON.stringify(args[bad])}); write it as a string ("${String(args[bad])}") and run again`,
    );
  }
  return args as string[];
}

/**
 * Refuses an object at `path` whose last key appears more than once: JSON parsers keep the last one (so do
 * the hosts), while an edit would find the first; which one the user meant is theirs to say.
 */
function refuseDuplicates(text: string, path: string[], file: string): void {
  const parent = findNodeAtLocation(parseTree(text)!, path.slice(0, -1));
  const name = path[path.length - 1];
  const same = (parent?.children ?? []).filter((p) => p.type === "property" && p.children?.[0]?.value === name);
  if (same.length > 1) {
    const lines = same.map((p) => text.slice(0, p.offset).split("\n").length);
    throw new ConfigError(
      `${file} has "${name}" ${same.length} times (lines ${lines.join(" and ")}); hosts use the last one. Remove the others and run again`,
    );
  }
}

/** What the wrapped entry runs through the tap: the command and args after `wrap --`, or null. */
export function wrappedCommand(entry: Entry): string[] | null {
  const at = entry.args.findIndex((a, i) => a === "wrap" && entry.args[i + 1] === "--");
  return at === -1 ? null : entry.args.slice(at + 2);
}

/** True when the entry already runs through a stdio tap: this one, or hopscope's from another place or build. */
export function isWrapped(entry: Entry, tap: TapCommand): boolean {
  const viaThisTap = entry.command === tap.command && tap.args.every((a, i) => entry.args[i] === a);
  const program = [entry.command, ...entry.args];
  const viaHopscope = program.some((a, i) => /hopscope(\.[cm]?[jt]s)?$/.test(a) && program[i + 1] === "wrap");
  return (viaThisTap && entry.args[tap.args.length] === "wrap") || viaHopscope;
}

/** The config text with server `name` running through the tap. */
export function wrapEntry(text: string, name: string, tap: TapCommand, file: string): string {
  const entry = findEntry(text, name, file);
  if (isWrapped(entry, tap)) throw new ConfigError(`server "${name}" in ${file} already runs through hopscope wrap`);
  const args = [...tap.args, "wrap", "--", entry.command, ...entry.args];
  return setEntry(text, entry.key, name, tap.command, args);
}

/**
 * The config text with server `name` given back the `command` and `args` it has in `original`, copied as
 * they were written there (the values' own text, so their formatting comes back too).
 */
export function restoreEntry(text: string, original: string, name: string, file: string): string {
  const was = findEntry(original, name, `the backup of ${file}`);
  const now = findEntry(text, name, file);
  const oldTree = parseTree(original);
  let out = text;
  for (const field of ["args", "command"] as const) {
    const from = oldTree && findNodeAtLocation(oldTree, [was.key, name, field]);
    const tree = parseTree(out);
    const at = tree && findNodeAtLocation(tree, [now.key, name, field]);
    if (from && at)
      out =
        out.slice(0, at.offset) +
        original.slice(from.offset, from.offset + from.length) +
        out.slice(at.offset + at.length);
    else
      out = applyEdits(
        out,
        modify(out, [now.key, name, field], field === "args" ? (from ? was.args : undefined) : was.command, {
          formattingOptions: formatOf(out),
        }),
      );
  }
  return out;
}

/** The file's own indentation and line ends, for the few characters jsonc-parser writes. */
function formatOf(text: string) {
  const indent = /\n([ \t]+)"/.exec(text)?.[1] ?? "  ";
  return {
    insertSpaces: !indent.startsWith("\t"),
    tabSize: indent.startsWith("\t") ? 1 : indent.length,
    eol: text.includes("\r\n") ? "\r\n" : "\n",
  };
}

function setEntry(text: string, key: Entry["key"], name: string, command: string, args: string[]): string {
  const formattingOptions = formatOf(text);
  let out = applyEdits(text, modify(text, [key, name, "command"], command, { formattingOptions }));
  out = applyEdits(out, modify(out, [key, name, "args"], args, { formattingOptions }));
  return out;
}
