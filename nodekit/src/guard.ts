/**
 * The one request guard of every hopscope server that changes state (agent host, MCP server, stand-in,
 * recorder API and feed, and the taps in front of them). A web page the user happens to visit must not
 * reach them:
 * - `Host` must be a loopback name or address, the bound address, or an entry of ALLOWED_HOSTS; any
 *   other name means a browser was sent here by DNS rebinding (`evil.example` resolving to 127.0.0.1).
 * - `Origin`, when a browser sends it, must be this same origin, a loopback page (the Vite dev server) or
 *   an ALLOWED_HOSTS name; `null` (sandboxed frames, file://) is refused. No Origin = not a browser.
 * - A state-changing request (POST, PUT, PATCH, DELETE) that carries a body or a Content-Type must say
 *   JSON: `text/plain` and form posts are what a page can send cross-site without a CORS preflight.
 */
import type { IncomingMessage } from "node:http";
import type { Context, MiddlewareHandler } from "hono";

export interface GuardPolicy {
  /** Lowercased `name` (any port) or `name:port` entries accepted besides loopback names (ALLOWED_HOSTS). */
  allowedHosts: readonly string[];
  /** The address the server binds; accepted as a Host name too (e.g. 0.0.0.0 inside a container). */
  bindHost: string;
  /** Refuse state-changing requests whose Content-Type is not JSON (default true). */
  requireJson?: boolean;
}

export interface GuardedRequest {
  method: string;
  host: string | undefined;
  origin: string | undefined;
  contentType: string | undefined;
  /** Content-Length over 0 or a Transfer-Encoding: the request has a body. */
  hasBody: boolean;
}

export interface Refusal {
  status: 403 | 415;
  reason: "host" | "origin" | "content-type";
  message: string;
}

const STATE_CHANGING = new Set(["POST", "PUT", "PATCH", "DELETE"]);
const JSON_TYPE = /^application\/([\w.+-]+\+)?json\s*(;|$)/i;
/** `application/json` or `application/<something>+json`, with or without parameters. */
export function isJsonContentType(type: string | undefined): boolean {
  return JSON_TYPE.test(type ?? "");
}

const IPV4_LOOPBACK = /^127(\.\d{1,3}){3}$/;

/** `host:port` / `[v6]:port` / `host` → lowercased name (brackets kept, trailing dot dropped) and port. */
export function splitHost(value: string): { name: string; port: string | null } {
  const v = value.trim().toLowerCase();
  const close = v.startsWith("[") ? v.indexOf("]") : -1;
  const colon = close >= 0 ? v.indexOf(":", close) : v.lastIndexOf(":");
  const name = (colon === -1 ? v : v.slice(0, colon)).replace(/\.$/, "");
  return { name, port: colon === -1 ? null : v.slice(colon + 1) };
}

export function isLoopbackName(name: string): boolean {
  return (
    name === "localhost" ||
    name.endsWith(".localhost") ||
    IPV4_LOOPBACK.test(name) ||
    name === "[::1]" ||
    name === "::1"
  );
}

function listed(name: string, port: string | null, policy: GuardPolicy): boolean {
  const bind = policy.bindHost.toLowerCase();
  if (name === bind || name === `[${bind}]`) return true;
  return policy.allowedHosts.some((entry) => {
    const e = splitHost(entry);
    return e.name === name && (e.port === null || e.port === port);
  });
}

/**
 * The Host each policy last accepted: a client sends the same one on every request, and parsing it again cost
 * the taps' forwarding thread more than the rest of the guard (a policy is never changed once made).
 */
const lastAccepted = new WeakMap<GuardPolicy, string>();

export function hostAllowed(host: string | undefined, policy: GuardPolicy): boolean {
  if (host === undefined) return false;
  if (lastAccepted.get(policy) === host) return true;
  if (host.trim() === "") return false;
  const { name, port } = splitHost(host);
  const ok = isLoopbackName(name) || listed(name, port, policy);
  if (ok) lastAccepted.set(policy, host);
  return ok;
}

export function originAllowed(origin: string | undefined, host: string | undefined, policy: GuardPolicy): boolean {
  if (origin === undefined) return true;
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    // "null" (sandboxed frames, file://) and garbage are not a page of ours; refusing is the answer.
    return false;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return false;
  if (host !== undefined && url.host === host.trim().toLowerCase()) return true;
  const { name, port } = splitHost(url.host);
  return isLoopbackName(name) || listed(name, port ?? (url.protocol === "https:" ? "443" : "80"), policy);
}

/** Null when the request may go on, else why not (status and a message saying how to fix it). */
export function checkRequest(req: GuardedRequest, policy: GuardPolicy): Refusal | null {
  if (!hostAllowed(req.host, policy)) {
    return {
      status: 403,
      reason: "host",
      message: `Forbidden: Host ${JSON.stringify(req.host ?? "")} is not this machine; use http://127.0.0.1 or http://localhost, or add the name to ALLOWED_HOSTS (other names are refused against DNS rebinding)`,
    };
  }
  if (!originAllowed(req.origin, req.host, policy)) {
    return {
      status: 403,
      reason: "origin",
      message: `Forbidden: Origin ${JSON.stringify(req.origin)} is not local; only pages served from this machine may call this server (or add its host to ALLOWED_HOSTS)`,
    };
  }
  const method = req.method.toUpperCase();
  if (
    (policy.requireJson ?? true) &&
    STATE_CHANGING.has(method) &&
    (req.hasBody || req.contentType !== undefined) &&
    !isJsonContentType(req.contentType)
  ) {
    return {
      status: 415,
      reason: "content-type",
      message: `Unsupported Media Type: send Content-Type: application/json (got ${req.contentType ? `'${req.contentType}'` : "none"})`,
    };
  }
  return null;
}

const hasBody = (contentLength: string | null | undefined, transferEncoding: string | null | undefined) =>
  (contentLength != null && contentLength.trim() !== "0") || transferEncoding != null;

/** The guard on a node:http request (taps, the feed's upgrade). */
export function checkIncoming(req: IncomingMessage, policy: GuardPolicy): Refusal | null {
  const h = req.headers;
  return checkRequest(
    {
      method: req.method ?? "GET",
      host: h.host,
      origin: h.origin,
      contentType: h["content-type"],
      hasBody: hasBody(h["content-length"], h["transfer-encoding"]),
    },
    policy,
  );
}

/** The guard as Hono middleware; `respond` writes the refusal in the app's own error shape. */
export function guard(
  policy: GuardPolicy,
  respond: (c: Context, refusal: Refusal) => Response | Promise<Response>,
): MiddlewareHandler {
  return async (c, next) => {
    const h = (name: string) => c.req.header(name);
    const refusal = checkRequest(
      {
        method: c.req.method,
        host: h("host"),
        origin: h("origin"),
        contentType: h("content-type"),
        hasBody: hasBody(h("content-length"), h("transfer-encoding")),
      },
      policy,
    );
    if (refusal) return respond(c, refusal);
    await next();
  };
}
