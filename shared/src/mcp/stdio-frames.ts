/**
 * MCP's stdio framing (basic/transports stdio): one JSON-RPC message per line, lines end with "\n" and
 * hold no embedded newline. `StdioFramer` cuts a byte stream into those frames as bytes arrive; a frame
 * longer than `cap` keeps only its first `cap` bytes (`truncated`, `size` the whole length), so a huge
 * line never sits in memory. Used by the notes server's stdio transport and by `hopscope wrap`.
 */
export interface StdioFrame {
  /** The frame without its "\n" (and without a "\r" before it), at most `cap` bytes. */
  bytes: Uint8Array;
  /** The frame's whole length in bytes, "\n" not counted. */
  size: number;
  truncated: boolean;
}

const NL = 0x0a;
const CR = 0x0d;

export class StdioFramer {
  private parts: Uint8Array[] = [];
  private kept = 0;
  private size = 0;

  constructor(private readonly cap: number) {}

  /** Feeds bytes; returns the frames they complete, in order. */
  push(chunk: Uint8Array): StdioFrame[] {
    const frames: StdioFrame[] = [];
    let from = 0;
    for (let nl = chunk.indexOf(NL); nl !== -1; nl = chunk.indexOf(NL, from)) {
      this.keep(chunk.subarray(from, nl));
      frames.push(this.take());
      from = nl + 1;
    }
    this.keep(chunk.subarray(from));
    return frames;
  }

  /** Bytes received after the last newline (half a line), as a frame; null when there are none. */
  rest(): StdioFrame | null {
    return this.size > 0 ? this.take(false) : null;
  }

  private keep(bytes: Uint8Array): void {
    this.size += bytes.length;
    const room = this.cap - this.kept;
    if (room <= 0 || bytes.length === 0) return;
    const part = bytes.length <= room ? bytes : bytes.subarray(0, room);
    // Copied: the caller's chunk buffer may be reused once push() returns.
    this.parts.push(part.slice());
    this.kept += part.length;
  }

  private take(stripCr = true): StdioFrame {
    let bytes = concat(this.parts, this.kept);
    let size = this.size;
    if (stripCr && size === bytes.length && bytes.length > 0 && bytes[bytes.length - 1] === CR) {
      bytes = bytes.subarray(0, bytes.length - 1);
      size -= 1;
    }
    const frame = { bytes, size, truncated: bytes.length < size };
    this.parts = [];
    this.kept = 0;
    this.size = 0;
    return frame;
  }
}

function concat(parts: Uint8Array[], length: number): Uint8Array {
  if (parts.length === 1) return parts[0] as Uint8Array;
  const out = new Uint8Array(length);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
