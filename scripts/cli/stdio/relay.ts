/**
 * The stdio tap's relay: runs the server as a child and passes both pipes byte for byte, each chunk
 * written on the moment it is read (no frame waits for its newline, let alone past it), stderr passed
 * through, back-pressure respected. Recording works on copies of what passed: the framers cut the
 * streams into lines, the pairing turns lines into events, the link sends them, and none of it can hold
 * up or change a byte of the relay.
 */
import { spawn } from "node:child_process";
import type { Readable, Writable } from "node:stream";
import { StdioFramer } from "@hopscope/shared/mcp/stdio-frames";
import type { StdioEvent } from "@hopscope/shared/trace/stdio-ingest";
import { nowEpoch } from "./clock";
import { StdioPairing } from "./pairing";
import { forwardSignals } from "./child-exit";

/** Frames up to this size are parsed whole to pair them; longer ones are paired from their start. */
const PARSE_CAP = 64 * 1024 * 1024;

export interface RelayOptions {
  command: string;
  args: string[];
  /** Bytes of each frame sent to the recorder (the default matches the recorder's MAX_BODY_BYTES). */
  recordCap: number;
  record: (events: StdioEvent[]) => void;
  stdin?: Readable;
  stdout?: Writable;
  stderr?: Writable;
}

type Stream = "stdin" | "stdout" | "stderr";

/** Relays until the server exits; resolves with its exit code (a signal death is re-raised on us). */
export async function relay(opts: RelayOptions): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  const stdin = opts.stdin ?? process.stdin;
  const stdout = opts.stdout ?? process.stdout;
  const stderr = opts.stderr ?? process.stderr;
  const pairing = new StdioPairing(opts.recordCap);
  const framers: Record<Stream, StdioFramer> = {
    stdin: new StdioFramer(PARSE_CAP),
    stdout: new StdioFramer(PARSE_CAP),
    stderr: new StdioFramer(PARSE_CAP),
  };
  const observe = (stream: Stream, chunk: Buffer, at: number) => {
    for (const frame of framers[stream].push(chunk)) opts.record(pairing.frame(stream, frame, at));
  };

  const child = spawn(opts.command, opts.args, { stdio: ["pipe", "pipe", "pipe"] });
  const stopSignals = forwardSignals(child);
  const spawned = new Promise<void>((resolve, reject) => {
    child.once("spawn", resolve);
    child.once("error", reject);
  });
  const ended = waitForExit(child);
  await spawned;

  pipe(stdin, child.stdin, (c, at) => observe("stdin", c, at));
  pipe(child.stdout, stdout, (c, at) => observe("stdout", c, at));
  pipe(child.stderr, stderr, (c, at) => observe("stderr", c, at));
  stdin.on("end", () => child.stdin.end());
  // The host stopped reading our stdout: the server's next write fails as it would have without the tap.
  stdout.on("error", () => child.stdout.destroy());
  // The server closed its stdin (or died): what the host still writes goes nowhere, as without the tap.
  child.stdin.on("error", () => undefined);

  const { code, signal } = await ended;
  stopSignals();
  stdin.pause();
  const rest = (["stdout", "stderr", "stdin"] as const).flatMap((stream) => {
    const frame = framers[stream].rest();
    return frame ? [{ stream, frame }] : [];
  });
  opts.record(pairing.end(rest, code, signal, nowEpoch()));
  return { code, signal };
}

/** Copies each chunk at once; pauses the source while the destination is full. Recording comes after. */
function pipe(from: Readable, to: Writable, seen: (chunk: Buffer, at: number) => void): void {
  from.on("data", (chunk: Buffer) => {
    // The arrival time is taken before the bytes are passed on, as the HTTP taps do.
    const at = nowEpoch();
    if (!to.write(chunk)) {
      from.pause();
      to.once("drain", () => from.resume());
    }
    seen(chunk, at);
  });
}

/** The child's exit, once its stdout and stderr are drained ("close" comes after both streams end). */
function waitForExit(child: ReturnType<typeof spawn>): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  return new Promise((resolve) => child.once("close", (code, signal) => resolve({ code, signal })));
}
