/**
 * The README's "Bring your own agent" recipes, checked against the launches tests/agents/ run: each agent's
 * subsection must name every environment variable, command-line flag and config key the tested launch
 * sets, and every tap address it writes (with the default ports). A recipe that drifts from what is
 * tested fails here, without installing any agent.
 */
import { mkdtemp, readFile, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { AGENTS, type Agent, type AgentClis } from "./agent-clis";
import { agentLaunch } from "./agent-launch";

export const RECIPE_HEADINGS: Record<Agent, string> = {
  "claude-code": "Claude Code",
  codex: "Codex",
  opencode: "opencode",
  "qwen-code": "Qwen Code",
};

/** Variables every launch sets for the sandbox itself, not part of a recipe. */
const SANDBOX_ENV = new Set(["PATH", "HOME", "LANG", "TERM", "NO_COLOR", "TMPDIR"]);

/** What the `### <heading>` subsection of `section` lacks for each agent (empty when every recipe is whole). */
export async function recipeProblems(section: string): Promise<string[]> {
  const problems: string[] = [];
  for (const agent of AGENTS) {
    const heading = RECIPE_HEADINGS[agent];
    const text = subsection(section, heading);
    if (text === null) {
      problems.push(`no "### ${heading}" recipe`);
      continue;
    }
    for (const name of await launchNames(agent))
      if (!text.includes(name)) problems.push(`${heading}: the recipe does not say ${name}`);
  }
  return problems;
}

function subsection(section: string, heading: string): string | null {
  const start = section.indexOf(`\n### ${heading}\n`);
  if (start === -1) return null;
  const end = section.indexOf("\n### ", start + 5);
  return section.slice(start, end === -1 ? undefined : end);
}

/** The names and addresses the tested launch uses, at the default tap ports, without the stdio server. */
async function launchNames(agent: Agent): Promise<string[]> {
  const home = await mkdtemp(join(tmpdir(), `hopscope-recipe-${agent}-`));
  try {
    const clis: AgentClis = { dir: "", bin: (name) => name, node22: "/node22/bin/node" };
    const launch = await agentLaunch(agent, clis, {
      modelTap: "http://127.0.0.1:7071",
      mcpTap: "http://127.0.0.1:7072",
      recorder: null,
      home,
      cwd: home,
      question: "Add buy milk to my notes",
    });
    const names = Object.keys(launch.env).filter((k) => !SANDBOX_ENV.has(k));
    names.push(...launch.args.filter((a) => a.startsWith("-")));
    for (const file of await readdir(home, { recursive: true, withFileTypes: true })) {
      if (!file.isFile()) continue;
      const text = await readFile(join(file.parentPath, file.name), "utf8");
      names.push(...(file.name.endsWith(".toml") ? tomlNames(text) : jsonNames(JSON.parse(text) as unknown)));
    }
    return [...new Set(names)];
  } finally {
    await rm(home, { recursive: true, force: true });
  }
}

/** `[table]` headers, `key =` lines and the quoted tap addresses of a TOML file. */
function tomlNames(text: string): string[] {
  return text.split("\n").flatMap((line) => {
    const table = /^\[[^\]]+\]$/.exec(line);
    if (table) return [table[0]];
    const key = /^(\w+) = (.*)$/.exec(line);
    if (!key) return [];
    return key[2]!.includes("127.0.0.1") ? [`${key[1]} = ${key[2]}`] : [`${key[1]} =`];
  });
}

/** Every key, quoted, and every string value holding a tap address, of a JSON document. */
function jsonNames(value: unknown): string[] {
  if (typeof value === "string") return value.includes("127.0.0.1") ? [JSON.stringify(value)] : [];
  if (Array.isArray(value)) return value.flatMap(jsonNames);
  if (value === null || typeof value !== "object") return [];
  return Object.entries(value).flatMap(([k, v]) => [JSON.stringify(k), ...jsonNames(v)]);
}
