/**
 * `npm run -s hopscope -- notes-server [--stdio]`: the notes MCP server, over HTTP (as `npm start` runs it)
 * or over stdio, for a host such as Claude Desktop to launch (see the README, "Use the notes server from
 * your own host"). The CLI never imports an app: it runs the app's own built entry point as a child with this
 * process's stdin, stdout, stderr and environment, and ends as the child ends.
 */
import { spawn } from "node:child_process";
import { builtFile, ensureBuilt } from "../build/programs";
import { childExit, forwardSignals } from "./stdio/child-exit";

const USAGE = `usage: npm run -s hopscope -- notes-server [--stdio]

  (no option)  serve POST /mcp over HTTP (PORT, HOST, NOTES_FILE as in docs/mcp-server.md)
  --stdio      speak MCP over stdin/stdout, for a host that launches its servers (Claude Desktop, VS Code, Cursor)
`;

export async function run(args: string[]): Promise<number> {
  if (args.includes("--help") || args.includes("-h")) {
    process.stdout.write(USAGE);
    return 0;
  }
  const unknown = args.filter((a) => a !== "--stdio");
  if (unknown.length > 0) {
    process.stderr.write(`notes-server: unknown option ${unknown.join(" ")}\n\n${USAGE}`);
    return 2;
  }
  const entry = args.includes("--stdio") ? "stdio-main.ts" : "main.ts";
  // The app as built (bundled once, again only when its sources change): a host waits for a stdio server's
  // first answer, so it starts as plain node, from any working directory. Build lines go to stderr.
  await ensureBuilt(["mcp-server"], { log: (line) => process.stderr.write(`notes-server: ${line}\n`) });
  const child = spawn(process.execPath, [builtFile("mcp-server", entry)], { stdio: "inherit" });
  const stop = forwardSignals(child);
  try {
    return await childExit(child);
  } finally {
    stop();
  }
}
