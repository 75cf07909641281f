/**
 * The head a tap sends its upstream for a client's request: the request line as received (the upstream's
 * base path in front of the target), then the headers to forward (hop-headers.ts: Host rewritten,
 * hop-by-hop fields dropped, the tap's own additions), names and order as sent.
 */
import type { Head } from "./llhttp";

/** A latin1 string: header values are the parser's latin1 strings of their bytes, so they go back byte for byte. */
export function formatRequestHead(head: Head, path: string, headers: readonly string[]): string {
  let out = `${head.method} ${path} HTTP/${head.versionMajor}.${head.versionMinor}\r\n`;
  for (let i = 0; i + 1 < headers.length; i += 2) out += `${headers[i]}: ${headers[i + 1]}\r\n`;
  return `${out}\r\n`;
}
