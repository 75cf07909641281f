/**
 * `npm start`: the whole of hopscope with one command. Starts the MCP server, the agent host, the recorder
 * (UI, API and its three taps) and a model server — a real Ollama when one answers with the model pulled,
 * otherwise the stand-in — wired so that every hop goes through a tap and is recorded. Prints one line per
 * service and the URL to open, then one line per hop as it is recorded (`--quiet` turns that off).
 * The apps run as built (scripts/build/programs.ts), and so does this launcher (scripts/launch.mjs runs
 * dist/start.js); what is older than its sources is built first.
 * `--dev` (npm run dev) runs the apps' sources through tsx, reloads them on change and serves the UI through
 * Vite's dev server.
 * `--audience [--audience-host ADDR]` also opens the read-only audience view for a room (scripts/launcher/audience.ts).
 */
import { spawn } from "node:child_process";
import { join } from "node:path";
import { loadLauncherConfig, type LauncherConfig } from "./launcher/config";
import { busyPorts } from "./launcher/ports";
import { chooseModel, type ModelChoice } from "./launcher/ollama-detect";
import { startService, stopAll, waitReady, type RunningService, type ServiceSpec } from "./launcher/services";
import { ensureUiBuilt } from "./launcher/build-ui";
import { ensureBuilt } from "./build/programs";
import { followHops } from "./launcher/hop-log";
import { audienceHost, printAudience } from "./launcher/audience";

const root = join(import.meta.dirname, "..");
const argv = process.argv.slice(2);
const args = new Set(argv);
const quiet = args.has("--quiet") || args.has("-q");
const dev = args.has("--dev");
const say = (line: string) => process.stdout.write(`${line}\n`);

/** A teacher who set AGENT_LESSON sees it is on (and that a real Ollama does not play it: lessons are the stand-in's). */
function lessonNote(lesson: LauncherConfig["AGENT_LESSON"], model: ModelChoice): string {
  if (!lesson) return "";
  return model.kind === "sim"
    ? `\n                   lesson: ${lesson}`
    : `\n                   lesson: ${lesson} — ignored: lessons are the stand-in's (HOPSCOPE_MODEL=sim)`;
}

function specs(c: LauncherConfig, model: ModelChoice, audience: string | null): ServiceSpec[] {
  const h = c.HOST;
  const modelUpstream = model.kind === "ollama" ? model.url : `http://${h}:${c.SIM_PORT}`;
  const list: ServiceSpec[] = [
    {
      name: "MCP server",
      app: "mcp-server",
      env: { PORT: String(c.MCP_SERVER_PORT), HOST: h, ...(c.NOTES_FILE ? { NOTES_FILE: c.NOTES_FILE } : {}) },
      readyUrl: `http://${h}:${c.MCP_SERVER_PORT}/mcp`,
      okStatuses: [405],
      shows: `MCP server     http://${h}:${c.MCP_SERVER_PORT}/mcp   (notes file: ${c.NOTES_FILE ?? "data/db"})`,
    },
  ];
  if (model.kind === "sim") {
    list.push({
      name: "stand-in model",
      app: "model-sim",
      env: { PORT: String(c.SIM_PORT), HOST: h },
      readyUrl: `http://${h}:${c.SIM_PORT}/api/version`,
      shows: `model          http://${h}:${c.SIM_PORT}   stand-in (simulated qwen2.5:7b; no GPU needed) — ${model.reason}`,
    });
  }
  list.push(
    {
      name: "recorder",
      app: "proxy",
      env: {
        HOST: h,
        UI_PORT: String(c.UI_PORT),
        MODEL_TAP_PORT: String(c.MODEL_TAP_PORT),
        MCP_TAP_PORT: String(c.MCP_TAP_PORT),
        AGENT_TAP_PORT: String(c.AGENT_TAP_PORT),
        MODEL_UPSTREAM: modelUpstream,
        MCP_UPSTREAM: `http://${h}:${c.MCP_SERVER_PORT}`,
        AGENT_UPSTREAM: `http://${h}:${c.AGENT_HOST_PORT}`,
        ...(c.DB_FILE ? { DB_FILE: c.DB_FILE } : {}),
        ...(audience ? { AUDIENCE_HOST: audience, AUDIENCE_PORT: String(c.AUDIENCE_PORT) } : {}),
      },
      readyUrl: `http://${h}:${c.UI_PORT}/api/health`,
      shows: `recorder       taps: model :${c.MODEL_TAP_PORT} → ${modelUpstream}, mcp :${c.MCP_TAP_PORT}, agent :${c.AGENT_TAP_PORT}`,
    },
    {
      name: "agent host",
      app: "host",
      env: {
        PORT: String(c.AGENT_HOST_PORT),
        HOST: h,
        // The host reaches the model and the MCP server through the recorder's taps, so every hop is recorded.
        OLLAMA_URL: `http://${h}:${c.MODEL_TAP_PORT}`,
        OLLAMA_MODEL: c.OLLAMA_MODEL,
        MCP_URL: `http://${h}:${c.MCP_TAP_PORT}/mcp`,
        AGENT_STREAM: c.AGENT_STREAM,
        AGENT_DIALECT: c.AGENT_DIALECT,
        ...(c.AGENT_LESSON ? { AGENT_LESSON: c.AGENT_LESSON } : {}),
      },
      readyUrl: `http://${h}:${c.AGENT_HOST_PORT}/health`,
      shows: `agent host     http://${h}:${c.AGENT_HOST_PORT}/agent   (ask through the agent tap: http://${h}:${c.AGENT_TAP_PORT}/agent)${lessonNote(c.AGENT_LESSON, model)}`,
    },
  );
  if (model.kind === "ollama") {
    list.splice(1, 0, {
      name: "model",
      app: "",
      env: {},
      readyUrl: "",
      shows: `model          ${model.url}   ${model.reason}`,
    });
  }
  return list;
}

const PORTS = [
  "MCP_SERVER_PORT",
  "AGENT_HOST_PORT",
  "UI_PORT",
  "MODEL_TAP_PORT",
  "MCP_TAP_PORT",
  "AGENT_TAP_PORT",
] as const;

/**
 * Starts the services of `list` (each added to `running`) and prints each one's line once it answers. Every app
 * talks to the others lazily (on the first request), so they can all start at once; the lines are printed in the
 * fixed order of the map. Throws the first failure in that order; `exited` hears of a service that stops.
 */
async function startServices(
  list: ServiceSpec[],
  running: RunningService[],
  exited: (spec: ServiceSpec, service: RunningService, why: string) => void,
): Promise<void> {
  const started = list.map((spec) => {
    if (!spec.app) return null;
    const service = startService(root, spec, dev, (line) => process.stderr.write(`${line}\n`));
    running.push(service);
    service.child.on("exit", (code, signal) => exited(spec, service, String(code ?? signal)));
    return service;
  });
  const ready = started.map((service) => (service ? waitReady(service) : Promise.resolve()));
  // Each failure is rethrown by the await below, in map order; this only stops Node from calling a
  // rejection "unhandled" while an earlier service is still being awaited.
  for (const p of ready) p.catch(() => undefined);
  for (const [i, spec] of list.entries()) {
    await ready[i];
    say(`  ✓ ${spec.shows}`);
  }
}

async function main(): Promise<number> {
  const config = loadLauncherConfig();
  const model = await chooseModel(config);
  const named = argv.indexOf("--audience-host");
  const audience = audienceHost(
    { audience: args.has("--audience"), named: named >= 0 ? (argv[named + 1] ?? "") : undefined },
    config,
  );
  const problems = await busyPorts(config, [
    ...PORTS,
    ...(model.kind === "sim" ? (["SIM_PORT"] as const) : []),
    ...(audience ? (["AUDIENCE_PORT"] as const) : []),
  ]);
  if (problems.length > 0) {
    for (const p of problems) process.stderr.write(`hopscope: ${p}\n`);
    return 1;
  }
  if (!dev) {
    // The apps and the CLI are bundled ahead (and only when their sources changed), so each starts as plain node.
    await ensureBuilt(undefined, { root, log: (line) => say(line) });
    ensureUiBuilt(root, say);
  }

  say("hopscope is starting:");
  const running: RunningService[] = [];
  let stopping = false;
  const stop = async (code: number) => {
    if (stopping) return;
    stopping = true;
    say("\nhopscope: stopping …");
    hops?.close();
    vite?.kill("SIGTERM");
    await stopAll(running);
    process.exit(code);
  };
  process.on("SIGINT", () => void stop(0));
  process.on("SIGTERM", () => void stop(0));

  let hops: { close(): void } | undefined;
  let vite: ReturnType<typeof spawn> | undefined;
  try {
    await startServices(specs(config, model, audience), running, (spec, service, why) => {
      if (stopping) return;
      process.stderr.write(`hopscope: ${spec.name} stopped (${why}):\n${service.output.join("\n")}\n`);
      if (!dev) void stop(1);
    });
  } catch (err) {
    process.stderr.write(`hopscope: ${err instanceof Error ? err.message : String(err)}\n`);
    await stop(1);
    return 1;
  }

  let uiUrl = `http://${config.HOST}:${config.UI_PORT}/`;
  if (dev) {
    vite = spawn(
      join(root, "node_modules", ".bin", "vite"),
      ["--host", config.HOST, "--strictPort", "--port", "5173"],
      {
        cwd: join(root, "apps", "web"),
        env: { ...process.env, UI_PORT: String(config.UI_PORT) },
        stdio: ["ignore", "ignore", "inherit"],
      },
    );
    uiUrl = `http://${config.HOST}:5173/`;
  }
  say(`\n  Open ${uiUrl} and ask the agent something (or: npm run -s hopscope -- ask "Add buy milk to my notes").`);
  if (audience) await printAudience(`http://${config.HOST}:${config.UI_PORT}`, say);
  say("  Ctrl-C stops everything.\n");
  if (!quiet) hops = followHops(`ws://${config.HOST}:${config.UI_PORT}/ws`, say);
  return new Promise<number>(() => {
    // Runs until Ctrl-C; stop() exits the process.
  });
}

/**
 * Run as built (dist/start.js) while the sources are newer: build, and let the new build run this start, so
 * a start always runs the current launcher. Returns true when it handed over.
 */
async function handedOver(): Promise<boolean> {
  if (dev || !import.meta.url.endsWith(".js")) return false;
  if ((await ensureBuilt(["scripts"], { root, log: say })).length === 0) return false;
  await import(`${import.meta.url}?built=${Date.now()}`);
  return true;
}

if (!(await handedOver())) void run();

function run(): Promise<void> {
  return main().then(
    // main() only settles when it did not start (busy ports: 1); once running, stop() exits the process.
    (code) => {
      process.exitCode = code;
    },
    (err: unknown) => {
      process.stderr.write(`hopscope: ${err instanceof Error ? err.message : String(err)}\n`);
      process.exit(1);
    },
  );
}
