/** The URL an exchange was sent to, as HAR's `request.url` and OTLP's `url.full` want it. */
import type { Exchange } from "@hopscope/shared/trace/schemas";

/**
 * Upstream (without a trailing slash) + the path and query the client sent: the taps are transparent
 * reverse proxies, so the upstream saw exactly this URL.
 */
export function absoluteUrl(ex: Pick<Exchange, "upstream" | "url">): string {
  return ex.upstream.replace(/\/+$/, "") + (ex.url.startsWith("/") ? ex.url : `/${ex.url}`);
}
