/**
 * The one redaction rule set: which header names and query parameters carry secrets. Applied before
 * anything is stored or broadcast (live traffic in the taps, HAR and hopscope imports, replays of a file)
 * and again on every export, so a trace recorded by an older build is cleaned on its way out too. The
 * wire itself is never altered. Recorded traces are shown to audiences and shared as files, so the rule
 * errs on the side of hiding.
 */
import type { TraceBundle } from "./bundle";
import type { Exchange, ExchangeSummary, HeaderList } from "./schemas";

export const REDACTED = "[redacted]";

const SECRET_HEADERS = new Set([
  "authorization",
  "proxy-authorization",
  "cookie",
  "set-cookie",
  "set-cookie2",
  "x-auth-key",
  "api-key",
]);
/**
 * `*-key` / `*_key` (X-Api-Key, X-Goog-Api-Key, Sec-… keys included) and their `*-key-id`, `*-token` and
 * `*token` (X-CSRFToken, Private-Token), `csrf`/`xsrf` anywhere, anything with `auth` in it (X-Auth-Key,
 * Proxy-Authorization), `secret`, `password`/`passwd`, `signature`, `cookie`, `session-token`/`session-key`,
 * `access-key`, `subscription-key`. Mcp-Session-Id and an agent's session id stay visible: they identify a
 * session, which the timeline teaches; so do the rate-limit counts of tokens (`…-tokens-remaining`).
 */
const SECRET_HEADER_PATTERN =
  /((^|[-_])(key|credentials?)(-id)?$|token$|apikey|access[-_]?key|auth(?!ority)|secret|passw(or)?d|signature|cookie|csrf|xsrf)/i;
/**
 * Text without any of these words holds no secret header name (a superset of the two rules above, tested on
 * a whole header block at once: most blocks then need no splitting, see header-block.ts).
 */
const MAYBE_SECRET_HEADER = /key|token|credential|auth|secret|passw|signature|cookie|csrf|xsrf/i;
/** Challenges, not credentials: WWW-Authenticate names the auth server an MCP client must use (worth seeing). */
const NOT_SECRET = new Set(["www-authenticate", "mcp-session-id"]);
const SECRET_PARAMS =
  /^(api[-_]?key|key|token|access[-_]?token|refresh[-_]?token|id[-_]?token|auth|password|passwd|secret|client[-_]?secret|sig|signature|x-amz-(signature|credential|security-token)|.*[-_](key|token|secret|signature))$/i;

const verdicts = new Map<string, boolean>();
const MAX_VERDICTS = 1000;

export function isSecretHeader(name: string): boolean {
  let secret = verdicts.get(name);
  if (secret === undefined) {
    const n = name.toLowerCase();
    secret = SECRET_HEADERS.has(n) || (!NOT_SECRET.has(n) && SECRET_HEADER_PATTERN.test(n));
    // Header names repeat across requests; remembering the verdict saves a regex per header per exchange.
    if (verdicts.size >= MAX_VERDICTS) verdicts.clear();
    verdicts.set(name, secret);
  }
  return secret;
}

/** False when no header named in `text` can be secret (isSecretHeader), however many names it holds. */
export function mayNameSecretHeader(text: string): boolean {
  return MAYBE_SECRET_HEADER.test(text);
}

export function isSecretParam(name: string): boolean {
  return SECRET_PARAMS.test(name);
}

export function redactHeaders(headers: readonly (readonly [string, string])[]): [string, string][] {
  const out: [string, string][] = new Array(headers.length);
  for (let i = 0; i < headers.length; i++) {
    const h = headers[i] as [string, string];
    out[i] = isSecretHeader(h[0]) ? [h[0], REDACTED] : h;
  }
  return out;
}

/** Redacts secret query parameters of a URL or path+query, keeping everything else byte for byte. */
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
      } catch {
        // A malformed escape: compare the raw name instead (still redacted if it looks secret).
      }
      return eq !== -1 && isSecretParam(decoded) ? `${name}=${REDACTED}` : part;
    })
    .join("&");
  return `${url.slice(0, q + 1)}${redacted}${hash === -1 ? "" : url.slice(hash)}`;
}

function redactSummary<T extends ExchangeSummary>(ex: T): T {
  const url = redactUrl(ex.url);
  return url === ex.url ? ex : { ...ex, url };
}

export function redactExchange(ex: Exchange): Exchange {
  return {
    ...redactSummary(ex),
    requestHeaders: redactHeaders(ex.requestHeaders) as HeaderList,
    responseHeaders: redactHeaders(ex.responseHeaders) as HeaderList,
  };
}

/** A bundle with every URL and header list redacted (imports before storing, exports before writing). */
export function redactBundle(bundle: TraceBundle): TraceBundle {
  return {
    ...bundle,
    trace: { ...bundle.trace, exchanges: bundle.trace.exchanges.map(redactSummary) },
    exchanges: bundle.exchanges.map(redactExchange),
  };
}
