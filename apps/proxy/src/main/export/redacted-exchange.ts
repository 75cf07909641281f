/**
 * What leaves the machine for other people (a shared HTML page, an audience viewer) is redacted once
 * more on the way out. The store is redacted on the way in; this guards traces stored by a build that
 * predates a redaction rule, or imported from a file that was not.
 */
import type { Exchange, ExchangeSummary } from "@hopscope/shared/trace/schemas";
import { redactHeaders, redactUrl } from "@hopscope/shared/trace/redact";

export function redactedSummary<T extends ExchangeSummary>(x: T): T {
  return { ...x, url: redactUrl(x.url) };
}

export function redactedExchange(x: Exchange): Exchange {
  return {
    ...redactedSummary(x),
    requestHeaders: redactHeaders(x.requestHeaders),
    responseHeaders: redactHeaders(x.responseHeaders),
  };
}
