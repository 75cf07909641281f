/**
 * How each agent CLI is launched by the README's "Bring your own agent" recipes: the environment variables,
 * the config files written into its throwaway HOME (or cwd) and its command line, for one non-interactive
 * question. Every telemetry, update and "nonessential traffic" switch is off, so the only hosts an agent
 * reaches are the recorder's taps. tests/readme.test.ts checks that each README recipe names what its launch
 * here sets (./agent-recipes.ts).
 */
import { mkdir, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { defaultConfig as simDefaults, loadConfig as loadSimConfig } from "../../apps/model-sim/src/sim/config";
import { AGENT_MODEL, type Agent, type AgentClis } from "./agent-clis";
import type { RecorderStackOptions } from "./recorder-stack";
import { wrapped } from "./stdio-host";

/** The stdio server `wrap` runs in front of: the reference "everything" server (a devDependency). */
const EVERYTHING = fileURLToPath(
  new URL("../../node_modules/@modelcontextprotocol/server-everything/dist/index.js", import.meta.url),
);

export interface AgentTargets {
  /** The model tap's origin, e.g. http://127.0.0.1:7071. */
  modelTap: string;
  /** The MCP tap's origin (the endpoint is `${mcpTap}/mcp`). */
  mcpTap: string;
  /** The recorder's origin, for `wrap` (HOPSCOPE_URL); null leaves the stdio server out. */
  recorder: string | null;
  home: string;
  cwd: string;
  question: string;
}

export interface AgentLaunch {
  command: string;
  args: string[];
  env: Record<string, string>;
  cwd: string;
}

/**
 * The stand-in as the recipes start it: `OLLAMA_CONTEXT_LENGTH=32768`, read as Ollama reads it, since an
 * agent's prompt of 10–20k tokens does not fit the 4,096-token default. Only the settings that variable
 * changes are passed, so the stack keeps its test defaults (port 0, no load pause) for the rest.
 */
export function recipeSimSettings(): RecorderStackOptions["sim"] {
  const base: Record<string, unknown> = simDefaults();
  const recipe = loadSimConfig({ OLLAMA_CONTEXT_LENGTH: "32768" });
  return Object.fromEntries(Object.entries(recipe).filter(([k, v]) => base[k] !== v));
}

export async function agentLaunch(agent: Agent, clis: AgentClis, t: AgentTargets): Promise<AgentLaunch> {
  const env: Record<string, string> = {
    // Node 22 first: Claude Code's and Qwen Code's launchers ask for it; nothing else from this process leaks in.
    PATH: `${dirname(clis.node22)}:${process.env.PATH ?? "/usr/bin:/bin"}`,
    HOME: t.home,
    LANG: "C.UTF-8",
    TERM: "dumb",
    NO_COLOR: "1",
    TMPDIR: join(t.home, "tmp"),
  };
  await mkdir(env.TMPDIR!, { recursive: true });
  const stdio = t.recorder ? wrapped([process.execPath, EVERYTHING, "stdio"]) : null;
  const stdioEnv: Record<string, string> = t.recorder ? { HOPSCOPE_URL: t.recorder } : {};
  switch (agent) {
    case "claude-code":
      return claudeCode(clis, t, env, stdio, stdioEnv);
    case "codex":
      return codex(clis, t, env, stdio, stdioEnv);
    case "opencode":
      return opencode(clis, t, env, stdio, stdioEnv);
    case "qwen-code":
      return qwenCode(clis, t, env, stdio, stdioEnv);
  }
}

type Stdio = string[] | null;

async function claudeCode(
  clis: AgentClis,
  t: AgentTargets,
  env: Record<string, string>,
  stdio: Stdio,
  stdioEnv: Record<string, string>,
): Promise<AgentLaunch> {
  const servers: Record<string, unknown> = { notes: { type: "http", url: `${t.mcpTap}/mcp` } };
  if (stdio) servers.everything = { type: "stdio", command: stdio[0], args: stdio.slice(1), env: stdioEnv };
  const mcpConfig = join(t.home, "mcp.json");
  await writeFile(mcpConfig, JSON.stringify({ mcpServers: servers }, null, 2));
  return {
    command: clis.bin("claude"),
    args: ["-p", t.question, "--model", AGENT_MODEL, "--mcp-config", mcpConfig, "--strict-mcp-config"].concat([
      "--allowedTools",
      "mcp__notes__append",
    ]),
    env: {
      ...env,
      ANTHROPIC_BASE_URL: t.modelTap,
      ANTHROPIC_AUTH_TOKEN: "ollama",
      ANTHROPIC_API_KEY: "",
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
      DISABLE_AUTOUPDATER: "1",
      DISABLE_TELEMETRY: "1",
      DISABLE_ERROR_REPORTING: "1",
    },
    cwd: t.cwd,
  };
}

async function codex(
  clis: AgentClis,
  t: AgentTargets,
  env: Record<string, string>,
  stdio: Stdio,
  stdioEnv: Record<string, string>,
): Promise<AgentLaunch> {
  const codexHome = join(t.home, ".codex");
  await mkdir(codexHome, { recursive: true });
  const toml = [
    `model = "${AGENT_MODEL}"`,
    `model_provider = "hopscope"`,
    `check_for_update_on_startup = false`,
    ``,
    `[model_providers.hopscope]`,
    `name = "Ollama through hopscope"`,
    `base_url = "${t.modelTap}/v1"`,
    `wire_api = "responses"`,
    ``,
    `[analytics]`,
    `enabled = false`,
    ``,
    `[feedback]`,
    `enabled = false`,
    ``,
    `[otel]`,
    `exporter = "none"`,
    ``,
    `[mcp_servers.notes]`,
    `url = "${t.mcpTap}/mcp"`,
    ``,
  ];
  if (stdio) {
    toml.push(
      `[mcp_servers.everything]`,
      `command = ${JSON.stringify(stdio[0])}`,
      `args = ${JSON.stringify(stdio.slice(1))}`,
      `env = { ${Object.entries(stdioEnv)
        .map(([k, v]) => `${k} = ${JSON.stringify(v)}`)
        .join(", ")} }`,
      `required = true`,
      ``,
    );
  }
  await writeFile(join(codexHome, "config.toml"), toml.join("\n"));
  return {
    command: clis.bin("codex"),
    args: [
      "exec",
      "--strict-config",
      "--skip-git-repo-check",
      "--dangerously-bypass-approvals-and-sandbox",
      t.question,
    ],
    env: { ...env, CODEX_HOME: codexHome },
    cwd: t.cwd,
  };
}

async function opencode(
  clis: AgentClis,
  t: AgentTargets,
  env: Record<string, string>,
  stdio: Stdio,
  stdioEnv: Record<string, string>,
): Promise<AgentLaunch> {
  const mcp: Record<string, unknown> = { notes: { type: "remote", url: `${t.mcpTap}/mcp`, enabled: true } };
  if (stdio) mcp.everything = { type: "local", command: stdio, environment: stdioEnv, enabled: true };
  const config = {
    $schema: "https://opencode.ai/config.json",
    model: `ollama/${AGENT_MODEL}`,
    share: "disabled",
    autoupdate: false,
    provider: {
      ollama: {
        npm: "@ai-sdk/openai-compatible",
        name: "Ollama through hopscope",
        options: { baseURL: `${t.modelTap}/v1` },
        models: { [AGENT_MODEL]: { name: AGENT_MODEL, tools: true } },
      },
    },
    mcp,
  };
  const file = join(t.home, "opencode.json");
  await writeFile(file, JSON.stringify(config, null, 2));
  return {
    command: clis.bin("opencode"),
    args: ["run", "--auto", t.question],
    env: {
      ...env,
      OPENCODE_CONFIG: file,
      OPENCODE_DISABLE_AUTOUPDATE: "1",
      OPENCODE_DISABLE_MODELS_FETCH: "1",
      OPENCODE_DISABLE_SHARE: "1",
      OPENCODE_DISABLE_LSP_DOWNLOAD: "1",
      OPENCODE_DISABLE_DEFAULT_PLUGINS: "1",
    },
    cwd: t.cwd,
  };
}

async function qwenCode(
  clis: AgentClis,
  t: AgentTargets,
  env: Record<string, string>,
  stdio: Stdio,
  stdioEnv: Record<string, string>,
): Promise<AgentLaunch> {
  const servers: Record<string, unknown> = { notes: { httpUrl: `${t.mcpTap}/mcp` } };
  if (stdio) servers.everything = { command: stdio[0], args: stdio.slice(1), env: stdioEnv };
  const settings = {
    mcpServers: servers,
    privacy: { usageStatisticsEnabled: false },
    telemetry: { enabled: false },
    general: { enableAutoUpdate: false },
  };
  await mkdir(join(t.home, ".qwen"), { recursive: true });
  await writeFile(join(t.home, ".qwen", "settings.json"), JSON.stringify(settings, null, 2));
  return {
    command: clis.bin("qwen"),
    args: ["--auth-type", "openai", "--yolo", t.question],
    env: {
      ...env,
      OPENAI_BASE_URL: `${t.modelTap}/v1`,
      OPENAI_API_KEY: "ollama",
      OPENAI_MODEL: AGENT_MODEL,
      QWEN_USAGE_STATISTICS_ENABLED: "0",
      QWEN_TELEMETRY_ENABLED: "0",
    },
    cwd: t.cwd,
  };
}
