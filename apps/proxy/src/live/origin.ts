/**
 * Which browser origins may open the live feed: the recorder's own host, or a loopback address (the
 * Vite dev server on another port). Anything else could be a web page the user happens to visit,
 * reading their recorded traffic (cross-site WebSocket hijacking). No Origin = not a browser: allowed.
 */
const LOOPBACK = new Set(["localhost", "127.0.0.1", "[::1]", "::1"]);

export function isAllowedOrigin(origin: string | undefined, host: string | undefined): boolean {
  if (origin === undefined) return true;
  let url: URL;
  try {
    url = new URL(origin);
  } catch (err) {
    // "null" (sandboxed iframes, file://) and garbage are not a page we serve.
    void err;
    return false;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return false;
  if (host !== undefined && url.host === host) return true;
  return LOOPBACK.has(url.hostname);
}
