/**
 * The curated traces of MCP clients on their own (no agent, no model), for scripts/record-traces.ts: the MCP
 * Inspector's CLI calling `append` through the HTTP MCP tap, and the official SDK's stdio client using our
 * notes server through the stdio tap (`hopscope wrap`). Each is one MCP session trace.
 */
import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { TraceListSchema } from "@hopscope/shared/trace/api";
import { TraceSchema, type Trace } from "@hopscope/shared/trace/schemas";
import type { RecorderStack } from "../tests/support/recorder-stack";

export type McpClientKind = "inspector" | "stdio";

/** The name the recorder gives both sessions (their first tools/call). */
export const SESSION_NAME = "MCP session: tools/call append";

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL("..", import.meta.url));
const INSPECTOR = `${ROOT}node_modules/@modelcontextprotocol/inspector/cli/build/cli.js`;
const TSX = import.meta.resolve("tsx");

/** Runs the client's session against the stack and returns its stored trace, once every exchange ended. */
export async function recordMcpSession(client: McpClientKind, stack: RecorderStack): Promise<Trace> {
  const since = Date.now();
  if (client === "inspector") {
    const { mcpTapUrl } = JSON.parse(await stack.api("/api/config")) as { mcpTapUrl: string };
    // The Inspector's CLI mode talks only to the URL it is given: the loopback MCP tap.
    await run(
      process.execPath,
      [
        INSPECTOR,
        "--cli",
        `${mcpTapUrl.replace(/\/mcp$/, "")}/mcp`,
        "--transport",
        "http",
        "--method",
        "tools/call",
        "--tool-name",
        "append",
        "--tool-arg",
        "content=buy milk",
      ],
      { timeout: 60_000 },
    );
  } else {
    const host = new Client({ name: "a-stdio-host", version: "1.0.0" });
    const server = [process.execPath, "--import", TSX, `${ROOT}apps/mcp-server/src/stdio-main.ts`];
    await host.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: ["--import", TSX, `${ROOT}scripts/hopscope.ts`, "wrap", "--", ...server],
        env: { PATH: process.env.PATH ?? "", NOTES_FILE: stack.notesFile, HOPSCOPE_URL: stack.uiUrl },
      }),
    );
    await host.listTools();
    await host.callTool({ name: "append", arguments: { content: "buy milk" } });
    await host.close();
  }
  return waitForSession(
    stack,
    since,
    client === "stdio" ? (t) => t.exchanges.some((e) => e.url === "exit") : () => true,
  );
}

async function waitForSession(stack: RecorderStack, since: number, ended: (t: Trace) => boolean): Promise<Trace> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const list = TraceListSchema.parse(JSON.parse(await stack.api("/api/traces?limit=20")));
    for (const s of list.traces.filter((t) => t.name === SESSION_NAME && t.createdAt >= since - 1)) {
      const trace = TraceSchema.parse(JSON.parse(await stack.api(`/api/traces/${s.id}`)));
      if (ended(trace) && trace.exchanges.every((e) => e.state !== "pending" && e.state !== "streaming")) return trace;
    }
    if (Date.now() > deadline) throw new Error(`no complete "${SESSION_NAME}" trace within 30 s`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
