#!/usr/bin/env node
/**
 * The `hopscope` command line: `npm run -s hopscope -- <command> [args]` from the sources, or as built
 * (`npm start` and `npm run build` bundle it into dist/hopscope.js, the package's `hopscope` bin) with
 * `node <checkout>/dist/hopscope.js <command> [args]` from any directory.
 * Each command lives in scripts/cli/<command>.ts and exports `run(args: string[]): Promise<number>`
 * (the exit code). Commands talk to the running apps over HTTP or use shared/'s pure functions; they
 * never import an app.
 */
const COMMANDS: Record<string, string> = {
  render: "Render an /api/chat request body (stdin) into the exact prompt the model sees.",
  ask: "Ask the agent host a question and print its reply and tool calls.",
  traces: "List the recorded traces.",
  export: "Export a trace (hopscope, har, otlp, mermaid, html).",
  import: "Import a trace file (hopscope or HAR).",
  replay: "Play a saved trace into a running UI at the recorded pace.",
  wrap: "Run a stdio MCP server through the recorder (wrap -- <command>), or wrap a host config's server entry.",
  unwrap: "Restore a host config entry that wrap --config changed.",
  "notes-server": "The notes MCP server, over HTTP or (--stdio) for hosts that launch their servers.",
  notes: "Show the notes file, or reset it for a demo (notes reset [--set empty|dentist|errands]).",
};

function usage(): string {
  const lines = Object.entries(COMMANDS).map(([name, help]) => `  ${name.padEnd(13)} ${help}`);
  return `usage: npm run -s hopscope -- <command> [options]\n\ncommands:\n${lines.join("\n")}\n`;
}

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (!command || command === "--help" || command === "-h" || command === "help") {
    process.stdout.write(usage());
    return command ? 0 : 2;
  }
  if (!(command in COMMANDS)) {
    process.stderr.write(`hopscope: unknown command "${command}"\n\n${usage()}`);
    return 2;
  }
  let mod: { run: (args: string[]) => Promise<number> };
  try {
    mod = (await import(`./cli/${command}.ts`)) as typeof mod;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ERR_MODULE_NOT_FOUND" && String(err).includes(`cli/${command}.ts`)) {
      process.stderr.write(`hopscope: the "${command}" command is not built yet\n`);
      return 2;
    }
    throw err;
  }
  return mod.run(rest);
}

// `hopscope traces | head` closes the pipe early: that is the reader saying it has enough, not a failure to
// report with a stack trace. Anything else on stdout is still thrown.
process.stdout.on("error", (err: NodeJS.ErrnoException) => {
  if (err.code === "EPIPE") process.exit(process.exitCode ?? 0);
  throw err;
});

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    process.stderr.write(`hopscope: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exitCode = 1;
  },
);
