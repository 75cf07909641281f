/**
 * For the stdio tap's tests: a bare "host" that launches a stdio server and talks to it line by line,
 * keeping every byte the server sent (stdout and stderr, with the chunk boundaries as they arrived) and
 * how it ended, so a direct run and a run through `hopscope wrap` can be compared byte for byte; plus
 * the command lines of both.
 */
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { fileURLToPath } from "node:url";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

export const HOPSCOPE_CLI = fileURLToPath(new URL("../../scripts/hopscope.ts", import.meta.url));
export const TSX = import.meta.resolve("tsx");

/** The command line that runs `server` through the stdio tap. */
export function wrapped(server: string[]): string[] {
  return [process.execPath, "--import", TSX, HOPSCOPE_CLI, "wrap", "--", ...server];
}

/** A JSON-RPC message a test sends (its id, when it has one, says which answer to wait for). */
export interface JsonRpcLine {
  jsonrpc: "2.0";
  method: string;
  id?: number | string;
  params?: unknown;
}

export class StdioHost {
  readonly child: ChildProcessWithoutNullStreams;
  private out: Buffer[] = [];
  private err: Buffer[] = [];
  readonly ended: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;

  constructor(command: string[], env: Record<string, string> = {}, cwd?: string) {
    const [program, ...args] = command;
    this.child = spawn(program as string, args, {
      env: { ...process.env, ...env },
      stdio: ["pipe", "pipe", "pipe"],
      ...(cwd ? { cwd } : {}),
    });
    this.child.stdout.on("data", (c: Buffer) => this.out.push(c));
    this.child.stderr.on("data", (c: Buffer) => this.err.push(c));
    this.ended = new Promise((resolve) => this.child.once("close", (code, signal) => resolve({ code, signal })));
  }

  get stdout(): Buffer {
    return Buffer.concat(this.out);
  }

  get stderr(): string {
    return Buffer.concat(this.err).toString("utf8");
  }

  send(message: unknown): void {
    this.child.stdin.write(`${typeof message === "string" ? message : JSON.stringify(message)}\n`);
  }

  /** Waits until stdout holds at least `bytes` bytes, or `text` (fails after `ms`, saying what it has). */
  async waitFor(what: { bytes?: number; text?: string; stderr?: string }, ms = 15_000): Promise<void> {
    const t0 = Date.now();
    for (;;) {
      const out = this.stdout;
      const ok =
        (what.bytes === undefined || out.length >= what.bytes) &&
        (what.text === undefined || out.includes(what.text)) &&
        (what.stderr === undefined || this.stderr.includes(what.stderr));
      if (ok) return;
      if (Date.now() - t0 > ms)
        throw new Error(
          `waited ${ms} ms for ${JSON.stringify(what)}; stdout ends ${JSON.stringify(out.subarray(-300).toString())}, stderr ${JSON.stringify(this.stderr.slice(-500))}`,
        );
      await new Promise((r) => setTimeout(r, 10));
    }
  }

  /** Sends requests one at a time, each after the answer to the one before (so runs are comparable). */
  async converse(messages: JsonRpcLine[]): Promise<void> {
    for (const m of messages) {
      this.send(m);
      if (m.id !== undefined) await this.waitFor({ text: `"id":${JSON.stringify(m.id)}` });
    }
  }

  async close(): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
    this.child.stdin.end();
    return this.ended;
  }
}

/** Our notes server over stdio, run from its source. */
export const NOTES_STDIO_SERVER = [
  process.execPath,
  "--import",
  TSX,
  fileURLToPath(new URL("../../apps/mcp-server/src/stdio-main.ts", import.meta.url)),
];

/** The SDK's stdio transport running our notes server on `notesFile` through `hopscope wrap`, recorded by `recorderUrl`. */
export function wrappedNotesTransport(notesFile: string, recorderUrl: string): StdioClientTransport {
  const [program, ...args] = wrapped(NOTES_STDIO_SERVER);
  return new StdioClientTransport({
    command: program as string,
    args,
    env: { PATH: process.env.PATH ?? "", NOTES_FILE: notesFile, HOPSCOPE_URL: recorderUrl },
  });
}
