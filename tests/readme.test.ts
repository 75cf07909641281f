/**
 * README.md is the front door, so what it says must be true. Checked here, from the README's own text:
 * - every `npm …` command (code blocks and inline code) names a script that exists (root or workspace),
 *   every `hopscope -- <cmd>` a CLI command file, every file argument an existing file, every flag given
 *   to `npm start` one the launcher reads, every `VAR=…` before `npm start` a launcher variable;
 * - every variable of the Configuration table is read by the code of the components its "used by" names;
 * - every port of the map table is the launcher's default for the variable it names, and every port in
 *   the text is one of those (or Vite's dev port, which the launcher sets);
 * - every relative link and image exists;
 * - each "Bring your own agent" recipe says what the launch of tests/agents/ sets (env, flags, config keys);
 * - the ask commands and the saved-trace commands, as written, work against the real stack with the
 *   recorder in the loop (only the port is moved, since the test stack binds free ports).
 */
import { execFile } from "node:child_process";
import { existsSync, readFileSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AgentResponseSchema } from "@hopscope/shared/agent/schemas";
import { parseTraceBundle } from "@hopscope/shared/trace/bundle";
import { TraceListSchema } from "@hopscope/shared/trace/api";
import { LauncherConfigSchema } from "../scripts/launcher/config";
import { recipeProblems } from "./support/agent-recipes";
import { startRecorderStack, type RecorderStack } from "./support/recorder-stack";

const root = join(import.meta.dirname, "..");
const readme = readFileSync(join(root, "README.md"), "utf8");
const rootScripts = (
  JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { scripts: Record<string, string> }
).scripts;

/** The body of the `## <title>` section (up to the next `## `). */
function section(title: string): string {
  const start = readme.indexOf(`\n## ${title}`);
  if (start === -1) throw new Error(`README.md has no "## ${title}" section`);
  const end = readme.indexOf("\n## ", start + 4);
  return readme.slice(start, end === -1 ? undefined : end);
}

/** Lines of the ```sh blocks of `text`, without comments and blank lines. */
function shellLines(text: string): string[] {
  const blocks = [...text.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]!);
  return blocks
    .flatMap((b) => b.split("\n"))
    .map((l) => l.replace(/\s+#\s.*$/, "").trim())
    .filter((l) => l !== "" && !l.startsWith("#"));
}

/** Inline code spans outside code blocks that are npm commands. */
function inlineNpmCommands(): string[] {
  const prose = readme.replace(/```[\s\S]*?```/g, "");
  return [...prose.matchAll(/`([^`\n]+)`/g)].map((m) => m[1]!).filter((c) => /^([A-Z_]+=\S+\s+)*npm\s/.test(c));
}

/** Shell words, quotes removed (enough for the README's commands: no escapes, no expansions). */
function words(line: string): string[] {
  return (line.match(/'[^']*'|"[^"]*"|\S+/g) ?? []).map((w) => w.replace(/^(['"])(.*)\1$/, "$2"));
}

/** `apps/<a|b>` → [`apps/a`, `apps/b`]. */
function alternatives(word: string): string[] {
  const m = /^(.*)<([^>]+)>(.*)$/.exec(word);
  return m ? m[2]!.split("|").map((alt) => `${m[1]}${alt}${m[3]}`) : [word];
}

/** What is wrong with one npm command line (empty when it is real). */
function npmProblems(line: string): string[] {
  const w = words(line.split("&&")[0]!);
  const env: string[] = [];
  while (w[0] && /^[A-Z_][A-Z0-9_]*=/.test(w[0])) env.push(w.shift()!.split("=")[0]!);
  if (w[0] !== "npm") return [];
  const dashes = w.indexOf("--");
  const before = dashes === -1 ? w.slice(1) : w.slice(1, dashes);
  const after = dashes === -1 ? [] : w.slice(dashes + 1);
  const [sub, ...opts] = before;
  if (sub === "ci")
    return existsSync(join(root, "package-lock.json")) ? [] : [`${line}: npm ci needs package-lock.json`];
  if (sub !== "start" && sub !== "test" && sub !== "run")
    return [`${line}: unexpected npm command "${sub}"`, `${line}: names no script`];
  const { script, workspaces } = sub === "run" ? runArgs(opts) : { script: sub, workspaces: [] };
  if (!script) return [`${line}: names no script`];
  if (workspaces.length > 0) return workspaceProblems(line, script, workspaces);
  const problems: string[] = [];
  if (!rootScripts[script]) problems.push(`${line}: package.json has no "${script}" script`);
  if (script === "start" || script === "dev") problems.push(...launcherProblems(line, env, after));
  if (script === "hopscope") problems.push(...cliProblems(line, after));
  return problems;
}

/** `npm run [-s] [-w <workspace>] <script>`: the script and the workspaces it runs in. */
function runArgs(opts: string[]): { script: string | undefined; workspaces: string[] } {
  let script: string | undefined;
  let workspaces: string[] = [];
  for (let i = 0; i < opts.length; i++) {
    const o = opts[i]!;
    if (o === "-s" || o === "--silent") continue;
    if (o === "-w" || o === "--workspace") workspaces = alternatives(opts[++i] ?? "");
    else if (!o.startsWith("-")) script ??= o;
  }
  return { script, workspaces };
}

function workspaceProblems(line: string, script: string, workspaces: string[]): string[] {
  const problems: string[] = [];
  for (const ws of workspaces) {
    const pkg = join(root, ws, "package.json");
    const scripts = existsSync(pkg)
      ? (JSON.parse(readFileSync(pkg, "utf8")) as { scripts?: Record<string, string> }).scripts
      : undefined;
    if (!scripts?.[script]) problems.push(`${line}: ${ws} has no "${script}" script`);
  }
  return problems;
}

/** Flags after `--` and variables before `npm start` the launcher does not read. */
function launcherProblems(line: string, env: string[], flags: string[]): string[] {
  const problems: string[] = [];
  const launcher = readFileSync(join(root, "scripts", "start.ts"), "utf8");
  for (const flag of flags)
    if (!launcher.includes(`"${flag}"`)) problems.push(`${line}: scripts/start.ts does not read ${flag}`);
  const known = Object.keys(LauncherConfigSchema.shape);
  for (const name of env) if (!known.includes(name)) problems.push(`${line}: the launcher does not read ${name}`);
  return problems;
}

/** `npm run hopscope -- <command> [files]`: the command's file and every file named. */
function cliProblems(line: string, after: string[]): string[] {
  const problems: string[] = [];
  const [command, ...args] = after;
  if (!command || !existsSync(join(root, "scripts", "cli", `${command}.ts`)))
    problems.push(`${line}: no CLI command file scripts/cli/${command}.ts`);
  for (const arg of args)
    if (/\.(json|har)$/.test(arg) && !existsSync(join(root, arg))) problems.push(`${line}: no file ${arg}`);
  return problems;
}

/** Every .ts file under `dir` (sources only). */
function sources(dir: string): string[] {
  const abs = join(root, dir);
  if (!existsSync(abs)) return [];
  return readdirSync(abs, { recursive: true, encoding: "utf8" })
    .filter((f) => f.endsWith(".ts") && !f.includes("node_modules"))
    .map((f) => join(abs, f))
    .filter((f) => statSync(f).isFile());
}

/** Where each "used by" word of the Configuration table points in the code. */
const USED_BY: Record<string, string[]> = {
  launcher: ["scripts/launcher"],
  host: ["apps/host/src"],
  "MCP server": ["apps/mcp-server/src"],
  "stand-in": ["apps/model-sim/src"],
  recorder: ["apps/proxy/src"],
  CLI: ["scripts/cli"],
  all: ["apps/mcp-server/src", "apps/host/src", "apps/model-sim/src", "apps/proxy/src", "scripts/launcher"],
};

function tableRows(text: string): string[][] {
  return text
    .split("\n")
    .filter((l) => l.startsWith("|") && !/^\|[-| ]+\|$/.test(l))
    .slice(1)
    .map((l) =>
      l
        .slice(1, -1)
        .split("|")
        .map((c) => c.trim()),
    );
}

describe("README.md, checked against the code", () => {
  it("names only npm scripts, CLI commands, files, flags and variables that exist", () => {
    const commands = [...shellLines(readme), ...inlineNpmCommands()].filter((l) => /^([A-Z_]+=\S+\s+)*npm\s/.test(l));
    // The Quick start, the ask commands and the saved-trace commands at least.
    expect(commands).toEqual(
      expect.arrayContaining([
        "npm ci",
        "npm start",
        "npm test",
        'npm run -s hopscope -- ask "Add buy milk to my notes"',
      ]),
    );
    expect(commands.flatMap(npmProblems)).toEqual([]);
  });

  it("lists in the Configuration table only variables the named components read", () => {
    const rows = tableRows(section("Configuration"));
    expect(rows.length).toBeGreaterThan(5);
    const problems: string[] = [];
    for (const [vars, , usedBy] of rows) {
      const names = [...vars!.matchAll(/`([A-Z][A-Z0-9_]+)`/g)].map((m) => m[1]!);
      expect(names.length, `a variable in "${vars}"`).toBeGreaterThan(0);
      for (const who of usedBy!.split(",").map((s) => s.trim())) {
        const dirs = USED_BY[who];
        if (!dirs) {
          problems.push(`unknown "used by" ${JSON.stringify(who)} for ${names.join(", ")}`);
          continue;
        }
        for (const dir of dirs) {
          const code = sources(dir)
            .map((f) => readFileSync(f, "utf8"))
            .join("\n");
          for (const name of names)
            if (!new RegExp(`\\b${name}\\b`).test(code))
              problems.push(`${name}: not read in ${dir} (README says "${who}")`);
        }
      }
    }
    expect(problems).toEqual([]);
  });

  it("lists in the Configuration table every variable a config module reads (one table for all)", () => {
    const listed = new Set([...section("Configuration").matchAll(/`([A-Z][A-Z0-9_]+)`/g)].map((m) => m[1]!));
    const configFiles = [
      ...["mcp-server/src", "host/src", "model-sim/src/sim", "proxy/src"].map((a) =>
        join(root, "apps", a, "config.ts"),
      ),
      join(root, "scripts", "launcher", "config.ts"),
    ];
    const read = new Set<string>();
    for (const f of configFiles)
      for (const m of readFileSync(f, "utf8").matchAll(/^\s+([A-Z][A-Z0-9_]+)\??:/gm)) read.add(m[1]!);
    for (const f of sources("scripts/cli"))
      for (const m of readFileSync(f, "utf8").matchAll(/env\.([A-Z][A-Z0-9_]+)/g)) read.add(m[1]!);
    expect(read.size).toBeGreaterThan(20);
    expect([...read].filter((v) => !listed.has(v)).sort()).toEqual([]);
  });

  it("gives the launcher's default ports in the map, and no other port", () => {
    const defaults = LauncherConfigSchema.parse({});
    const rows = tableRows(section("The map"));
    const mapped = new Set<number>();
    for (const [port, , variable] of rows) {
      const name = /`([A-Z_]+)`/.exec(variable!)?.[1];
      expect(name, `env var of port ${port}`).toBeDefined();
      const expected =
        name === "OLLAMA_URL" ? Number(new URL(defaults.OLLAMA_URL).port) : defaults[name as keyof typeof defaults];
      expect(Number(port), `${name}`).toBe(expected);
      mapped.add(Number(port));
    }
    // Ports named anywhere else (the diagram, URLs in the text) are mapped ones, or Vite's dev server.
    const viteDev = Number(/"--port",\s*"(\d+)"/.exec(readFileSync(join(root, "scripts", "start.ts"), "utf8"))?.[1]);
    const elsewhere = [...readme.matchAll(/(?:127\.0\.0\.1|localhost|host\.docker\.internal)?:(\d{4,5})\b/g)].map((m) =>
      Number(m[1]),
    );
    expect(elsewhere.length).toBeGreaterThan(5);
    expect(elsewhere.filter((p) => !mapped.has(p) && p !== viteDev)).toEqual([]);
  });

  it("gives each agent's recipe the variables, flags and config keys its tested launch uses", async () => {
    expect(await recipeProblems(section("Bring your own agent"))).toEqual([]);
    expect(section("A guided tour: the eight hops on screen")).toContain("(#bring-your-own-agent)");
  });

  it("links only to files that exist", () => {
    const links = [...readme.matchAll(/!?\[[^\]]*\]\(([^)\s]+)\)/g)]
      .map((m) => m[1]!)
      .filter((l) => !/^(https?:|#|mailto:)/.test(l));
    expect(links.length).toBeGreaterThan(2);
    expect(links.filter((l) => !existsSync(join(root, l.split("#")[0]!)))).toEqual([]);
  });
});

/** Runs one README line with sh, in the repo root, with extra env. */
function sh(line: string, env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      "sh",
      ["-c", line],
      { cwd: root, env: { ...process.env, ...env }, maxBuffer: 16 * 1024 * 1024 },
      (err, stdout, stderr) => {
        const code = err ? (typeof err.code === "number" ? err.code : 1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

describe("the README's commands, as written, against the real stack", () => {
  let stack: RecorderStack;
  let env: Record<string, string>;
  const askBlock = shellLines(section("Quick start"));
  const savedBlock = shellLines(section("Saved traces, exports and replay"));
  const line = (lines: string[], start: string) => {
    const found = lines.find((l) => l.startsWith(start));
    if (!found)
      throw new Error(`README.md has no command starting with ${JSON.stringify(start)}; it is the one this test runs`);
    return found;
  };

  beforeAll(async () => {
    stack = await startRecorderStack();
    const agentTapPort = new URL(stack.agentTapUrl).port;
    // The CLI's env vars point it at this stack instead of the default ports `npm start` uses.
    env = { HOPSCOPE_AGENT_URL: stack.agentTapUrl, HOPSCOPE_URL: stack.uiUrl, AGENT_TAP_PORT: agentTapPort };
  });
  afterAll(() => stack?.close());

  it("asks with the CLI and with curl, and both questions are recorded", async () => {
    const cli = await sh(line(askBlock, "npm run -s hopscope -- ask"), env);
    expect(cli.code, cli.stderr).toBe(0);
    expect(cli.stdout).toMatch(/1\. append \{"content":"buy milk"\} → "Success"/);

    const curlLine = line(askBlock, "curl ");
    const defaultTap = LauncherConfigSchema.parse({}).AGENT_TAP_PORT;
    expect(curlLine).toContain(`:${defaultTap}/agent`);
    const curl = await sh(curlLine.replace(`:${defaultTap}/agent`, `:${env.AGENT_TAP_PORT}/agent`), env);
    expect(curl.code, curl.stderr).toBe(0);
    const answer = AgentResponseSchema.parse(JSON.parse(curl.stdout));
    expect(answer.toolCalls).toEqual([
      { name: "append", arguments: { content: "buy milk" }, output: "Success", isError: false },
    ]);
    expect((await stack.readNotes()).split("\n").filter((l) => l === "buy milk")).toHaveLength(2);

    // The recorder writes on an interval, so the second trace may be listed a moment after curl returned.
    const listed = async () =>
      TraceListSchema.parse(JSON.parse(await stack.api("/api/traces"))).traces.filter(
        (t) => t.name === "Add buy milk to my notes",
      ).length;
    await expect.poll(listed, { timeout: 5000 }).toBe(2);
  });

  it("lists, exports and imports traces with the saved-trace commands", async () => {
    await stack.ask("Add buy milk to my notes");
    const recorded = await stack.waitForTrace("Add buy milk to my notes");

    const list = await sh(line(savedBlock, "npm run -s hopscope -- traces"), env);
    expect(list.code, list.stderr).toBe(0);
    expect(list.stdout).toContain(recorded.id);

    const exportLine = line(savedBlock, "npm run -s hopscope -- export");
    expect(exportLine).toContain("<id>");
    const har = await sh(exportLine.replace("<id>", recorded.id), env);
    expect(har.code, har.stderr).toBe(0);
    const entries = (JSON.parse(har.stdout) as { log: { entries: unknown[] } }).log.entries;
    expect(entries).toHaveLength(recorded.exchanges.length);

    const importLine = line(savedBlock, "npm run -s hopscope -- import");
    const file = words(importLine).at(-1)!;
    const bundle = parseTraceBundle(JSON.parse(readFileSync(join(root, file), "utf8")));
    const imported = await sh(importLine, env);
    expect(imported.code, imported.stderr).toBe(0);
    const importedTraces = async () =>
      TraceListSchema.parse(JSON.parse(await stack.api("/api/traces")))
        .traces.filter((t) => t.source === "imported")
        .map((t) => t.name);
    await expect.poll(importedTraces, { timeout: 5000 }).toEqual([bundle.trace.name]);
  });
});
