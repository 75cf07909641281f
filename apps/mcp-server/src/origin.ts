/**
 * DNS-rebinding defence (streamable-http.mdx "Security"): a browser always sends `Origin` on a POST,
 * so a present Origin that is not this machine means a web page is trying to reach the local server.
 * No Origin (curl, SDK clients, the host) is allowed.
 */
const LOCAL_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);

export function isAllowedOrigin(origin: string | undefined): boolean {
  if (origin === undefined) return true;
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    // "null" (sandboxed frames, file://) and garbage are not a local origin: refuse them.
    return false;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return false;
  return LOCAL_HOSTS.has(url.hostname) || /^127(\.\d{1,3}){3}$/.test(url.hostname) || url.hostname.endsWith(".localhost");
}
