/**
 * Header handling of a transparent reverse proxy (RFC 9110 §7.6.1): hop-by-hop fields and any field
 * named in `Connection` are not forwarded; everything else passes in order, names as sent.
 */
const HOP_BY_HOP = new Set([
  "connection",
  "keep-alive",
  "proxy-connection",
  "transfer-encoding",
  "te",
  "trailer",
  "upgrade",
  "proxy-authenticate",
  "proxy-authorization",
]);

/**
 * Node's flat raw headers ([name, value, …]) straight to the flat list to forward (one pass), with the first
 * `Host` replaced by `host` (appended when absent) when given. With `chunked`, Transfer-Encoding is kept as
 * sent: the tap forwards a chunked request body chunked (framed again), with its codings.
 */
export function forwardHeaders(raw: readonly string[], host?: string, chunked = false): string[] {
  let listed: Set<string> | null = null;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const k = raw[i] as string;
    if (k.length === 10 && k.toLowerCase() === "connection") {
      for (const t of (raw[i + 1] as string).split(",")) (listed ??= new Set()).add(t.trim().toLowerCase());
    }
  }
  const out: string[] = [];
  let hostDone = host === undefined;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const k = raw[i] as string;
    const n = k.toLowerCase();
    if ((HOP_BY_HOP.has(n) && !(chunked && n === "transfer-encoding")) || listed?.has(n)) continue;
    if (!hostDone && n === "host") {
      out.push(k, host as string);
      hostDone = true;
    } else out.push(k, raw[i + 1] as string);
  }
  if (!hostDone) out.push("Host", host as string);
  return out;
}

/** The first value of a header in the flat form; `name` lowercase (matched case-insensitively). */
export function flatHeader(flat: readonly string[], name: string): string | undefined {
  for (let i = 0; i + 1 < flat.length; i += 2) {
    const k = flat[i] as string;
    if (k.length === name.length && k.toLowerCase() === name) return flat[i + 1];
  }
  return undefined;
}

/** setHeader on the flat form. */
export function setFlatHeader(flat: string[], name: string, value: string): void {
  const n = name.toLowerCase();
  for (let i = 0; i + 1 < flat.length; i += 2) {
    if ((flat[i] as string).toLowerCase() === n) {
      flat[i + 1] = value;
      return;
    }
  }
  flat.push(name, value);
}
