/**
 * Secrets are redacted before anything is stored or broadcast (the wire itself is never altered).
 * Recorded traces are shown to audiences and shared as files, so the rule errs on the side of hiding.
 */
export const REDACTED = "[redacted]";

const SECRET_HEADERS = new Set(["authorization", "proxy-authorization", "cookie", "set-cookie", "x-api-key", "api-key"]);
// Mcp-Session-Id stays visible: it identifies a (legacy) MCP session, which the timeline teaches about.
const SECRET_HEADER_PATTERN = /(api[-_]?key|token|secret|password)/i;
const SECRET_PARAMS = /^(api[-_]?key|key|token|access[-_]?token|refresh[-_]?token|id[-_]?token|auth|password|secret|client[-_]?secret|sig|signature)$/i;

export function isSecretHeader(name: string): boolean {
  let secret = verdicts.get(name);
  if (secret === undefined) {
    const n = name.toLowerCase();
    secret = SECRET_HEADERS.has(n) || SECRET_HEADER_PATTERN.test(n);
    // Header names repeat across requests; remembering the verdict saves a regex per header per exchange.
    if (verdicts.size >= MAX_VERDICTS) verdicts.clear();
    verdicts.set(name, secret);
  }
  return secret;
}

const verdicts = new Map<string, boolean>();
const MAX_VERDICTS = 1000;

export function redactHeaders(headers: readonly [string, string][]): [string, string][] {
  const out: [string, string][] = new Array(headers.length);
  for (let i = 0; i < headers.length; i++) {
    const h = headers[i] as [string, string];
    out[i] = isSecretHeader(h[0]) ? [h[0], REDACTED] : h;
  }
  return out;
}

/** Redacts secret query parameters of a path+query, keeping everything else byte for byte. */
export function redactUrl(url: string): string {
  const q = url.indexOf("?");
  if (q === -1) return url;
  const hash = url.indexOf("#", q);
  const query = url.slice(q + 1, hash === -1 ? undefined : hash);
  const redacted = query
    .split("&")
    .map((part) => {
      const eq = part.indexOf("=");
      const name = eq === -1 ? part : part.slice(0, eq);
      let decoded = name;
      try {
        decoded = decodeURIComponent(name.replace(/\+/g, " "));
      } catch (err) {
        // A malformed escape: compare the raw name instead (still redacted if it looks secret).
        void err;
      }
      return eq !== -1 && SECRET_PARAMS.test(decoded) ? `${name}=${REDACTED}` : part;
    })
    .join("&");
  return `${url.slice(0, q + 1)}${redacted}${hash === -1 ? "" : url.slice(hash)}`;
}
