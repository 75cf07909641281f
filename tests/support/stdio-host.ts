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
  private closed = false;
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
    this.ended = new Promise((resolve) =>
      this.child.once("close", (code, signal) => {
        this.closed = true;
        resolve({ code, signal });
      }),
    );
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

  /**
   * Waits until stdout holds at least `bytes` bytes, or `text` (or stderr holds `stderr`), checked as each
   * chunk arrives; fails, saying what it has, if the server ends first. No deadline of its own: a busy
   * machine may take long to start a server, and the test's timeout bounds one that hangs.
   */
  waitFor(what: { bytes?: number; text?: string; stderr?: string }): Promise<void> {
    const met = () =>
      (what.bytes === undefined || this.stdout.length >= what.bytes) &&
      (what.text === undefined || this.stdout.includes(what.text)) &&
      (what.stderr === undefined || this.stderr.includes(what.stderr));
    const unmet = () =>
      new Error(
        `the server ended before ${JSON.stringify(what)}; stdout ends ${JSON.stringify(this.stdout.subarray(-300).toString())}, stderr ${JSON.stringify(this.stderr.slice(-500))}`,
      );
    if (met()) return Promise.resolve();
    if (this.closed) return Promise.reject(unmet());
    return new Promise((resolve, reject) => {
      const { stdout, stderr } = this.child;
      const stop = () => {
        stdout.off("data", onData);
        stderr.off("data", onData);
        this.child.off("close", onClose);
      };
      // Registered after the constructor's listeners, so the chunk is kept before it is checked.
      const onData = () => met() && (stop(), resolve());
      const onClose = () => (stop(), met() ? resolve() : reject(unmet()));
      stdout.on("data", onData);
      stderr.on("data", onData);
      this.child.once("close", onClose);
    });
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
