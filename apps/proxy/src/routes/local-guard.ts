/**
 * The recorder API holds everything the user's agent said and did, and `/api/ask` makes the agent act.
 * Only the user's own browser may use it: requests must name a loopback (or the configured) host, which
 * defeats DNS rebinding, and a browser Origin, when sent, must be that host or a loopback one (the Vite
 * dev server), which stops other web pages from reading or triggering it.
 */
import type { MiddlewareHandler } from "hono";
import { isAllowedOrigin } from "../live/origin";

const LOOPBACK_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);

export function localGuard(bindHost: string): MiddlewareHandler {
  const allowed = new Set([...LOOPBACK_HOSTS, bindHost.includes(":") ? `[${bindHost}]` : bindHost]);
  return async (c, next) => {
    const host = c.req.header("host") ?? "";
    const hostname = host.startsWith("[") ? host.slice(0, host.indexOf("]") + 1) : host.split(":")[0]!;
    if (bindHost !== "0.0.0.0" && bindHost !== "::" && !allowed.has(hostname.toLowerCase())) {
      return c.json({ error: `host "${host}" is not this recorder; open it as http://127.0.0.1 or http://localhost` }, 403);
    }
    if (!isAllowedOrigin(c.req.header("origin"), host)) {
      return c.json({ error: `requests from origin ${c.req.header("origin")} are not allowed; use the hopscope UI itself` }, 403);
    }
    await next();
  };
}
