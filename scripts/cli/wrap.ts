/**
 * `npm run -s hopscope -- wrap -- <command> [args…]`: the stdio tap. Runs an MCP server that speaks stdio
 * as a child, relays its stdin, stdout and stderr byte for byte, and records every JSON-RPC message into
 * the running recorder (HOPSCOPE_URL, default http://127.0.0.1:7070) on the MCP lane, marked stdio. Put it
 * in front of the server's command in a host's config (or let `wrap --config` do it); the host cannot tell.
 * It ends as the server ends: same exit code, or the same signal.
 *
 * `wrap --config <file> --server <name>` rewrites that server's entry in a host config to run through the
 * tap (see wrap-config.ts); `unwrap` puts it back.
 */
import { randomUUID } from "node:crypto";
import type { StdioEvent } from "@hopscope/shared/trace/stdio-ingest";
import { relay } from "./stdio/relay";

/** Bytes of each frame that are recorded (the recorder's MAX_BODY_BYTES default); frames always pass whole. */
const RECORD_CAP = 4 * 1024 * 1024;
/** How long the tap waits, once the server has exited, for the recorder to take the last events. */
const FLUSH_TIMEOUT_MS = 2000;

const USAGE = `usage: npm run -s hopscope -- wrap -- <command> [args…]
       npm run -s hopscope -- wrap --config <host config .json> --server <name>

  wrap -- <command>   run a stdio MCP server through the recorder (HOPSCOPE_URL, default http://127.0.0.1:7070)
  wrap --config …     rewrite one server entry of a Claude Desktop / VS Code / Cursor config to run through
                      the tap (a backup is kept next to the file; \`hopscope unwrap\` restores it)
`;

export async function run(args: string[]): Promise<number> {
  if (args[0] === "--help" || args[0] === "-h") {
    process.stdout.write(USAGE);
    return 0;
  }
  if (args.includes("--config")) {
    const { wrapConfigCommand } = await import("./stdio/wrap-config-command");
    return wrapConfigCommand("wrap", args, USAGE);
  }
  const command = args[0] === "--" ? args.slice(1) : args;
  const [program, ...rest] = command;
  if (!program) {
    process.stderr.write(`hopscope wrap: say which server to run, after --\n\n${USAGE}`);
    return 2;
  }
  const say = (line: string) => process.stderr.write(`hopscope wrap: ${line}\n`);
  // The server is spawned first and the line to the recorder (its schemas, its HTTP client) loaded while it
  // starts: a host waits for the server's first answer, not for the tap. Events wait for the link in order.
  const session = { id: randomUUID(), command: command.map(quote).join(" ") };
  const linked = import("./stdio/recorder-link").then(({ RecorderLink }) => new RecorderLink(session, say));
  const record = (events: StdioEvent[]) => void linked.then((link) => link.send(events));
  let ended: Awaited<ReturnType<typeof relay>>;
  try {
    ended = await relay({ command: program, args: rest, recordCap: RECORD_CAP, record });
  } catch (err) {
    // The command could not be started: the host sees what a failed launch looks like, and why.
    say(`could not start ${program}: ${(err as Error).message}`);
    return 127;
  }
  await Promise.race([
    linked.then((link) => link.flushed()),
    new Promise((resolve) => setTimeout(resolve, FLUSH_TIMEOUT_MS).unref()),
  ]);
  if (ended.signal) {
    // Die of the same signal (the relay's forwarding handlers are gone, so the default action runs).
    process.kill(process.pid, ended.signal);
  }
  // Nothing else may keep us alive (the host's stdin is still open): exit as the server did.
  process.exit(ended.code ?? 1);
}

function quote(arg: string): string {
  return /^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, "'\\''")}'`;
}
