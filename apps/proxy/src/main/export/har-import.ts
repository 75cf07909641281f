/**
 * HAR → trace bundle (the reading half of ./har.ts; the mapping is documented there). A HAR we wrote
 * carries `_hopscope` fields and is restored exactly; any other HAR is rebuilt from what HAR records.
 */
import { isNoStreamAnswer } from "@hopscope/shared/trace/no-stream";
import { JsonLimitError, parseJson } from "@hopscope/shared/json/parse";
import { Buffer } from "node:buffer";
import { createHash } from "node:crypto";
import { z } from "zod";
import { bundleErrorMap, formatBundleError, parseTraceBundle, type TraceBundle } from "@hopscope/shared/trace/bundle";
import { utf8BodyText, classifyExchange } from "@hopscope/shared/trace/classify";
import { linkExchanges, toolMessagesOfText } from "@hopscope/shared/trace/link";
import type { Body, Classification, Exchange, HeaderList } from "@hopscope/shared/trace/schemas";
import { parseTraceparent } from "@hopscope/shared/trace/traceparent";
import { bodyFromBytes, utf8Body } from "./body-text";
import { HarEntryExtSchema, HarInputSchema, HarPageExtSchema, type HarInputEntry } from "./har-schema";
import { TraceImportError, tooDeep } from "./import-error";
import { guessTap } from "./tap-guess";
import { maxOf } from "@hopscope/shared/json/extent";

type HarInput = z.infer<typeof HarInputSchema>;

function invalid(err: unknown, prefix: (string | number)[]): never {
  const message =
    err instanceof z.ZodError
      ? formatBundleError(new z.ZodError(err.issues.map((i) => ({ ...i, path: [...prefix, ...i.path] }))))
      : formatBundleError(err);
  throw new TraceImportError("har", `invalid HAR file:\n${message}`, { cause: err });
}

function parseHar(text: string): HarInput {
  let json: unknown;
  try {
    json = parseJson(text);
  } catch (err) {
    if (err instanceof JsonLimitError) throw tooDeep("har", err);
    throw new TraceImportError("har", `not a HAR file: the file is not valid JSON (${(err as Error).message})`, {
      cause: err,
    });
  }
  if (typeof json !== "object" || json === null || !("log" in json)) {
    throw new TraceImportError(
      "har",
      'not a HAR file: expected a JSON object with a "log" property (HAR 1.2, as saved by a browser\'s dev tools)',
    );
  }
  const parsed = HarInputSchema.safeParse(json, { error: bundleErrorMap });
  if (!parsed.success) invalid(parsed.error, []);
  if (parsed.data.log.entries.length === 0) {
    throw new TraceImportError("har", "log.entries: the HAR file has no requests to import");
  }
  return parsed.data;
}

const headerList = (headers: { name: string; value: string }[]): HeaderList => headers.map((h) => [h.name, h.value]);

/** Restores a HAR written by exportHar: every entry and the page carry `_hopscope`. */
function restoreOwn(har: HarInput, pageExt: unknown): TraceBundle {
  const page = HarPageExtSchema.safeParse(pageExt, { error: bundleErrorMap });
  if (!page.success) invalid(page.error, ["log", "pages", 0, "_hopscope"]);
  const exchanges: Exchange[] = har.log.entries.map((entry, i) => {
    const ext = HarEntryExtSchema.safeParse(entry._hopscope, { error: bundleErrorMap });
    if (!ext.success) invalid(ext.error, ["log", "entries", i, "_hopscope"]);
    const { requestBody, responseBody, ...rest } = ext.data.exchange;
    return {
      ...rest,
      requestHeaders: headerList(entry.request.headers),
      responseHeaders: headerList(entry.response.headers),
      requestBody: requestBody ? { ...requestBody, data: entry.request.postData?.text ?? "" } : null,
      responseBody: responseBody ? { ...responseBody, data: entry.response.content?.text ?? "" } : null,
    };
  });
  const { version: _v, exportedAt, generator, trace } = page.data;
  return validated({
    format: "hopscope-trace",
    version: 1,
    exportedAt,
    generator,
    trace: {
      ...trace,
      exchanges: exchanges.map(
        ({ requestHeaders: _a, responseHeaders: _b, requestBody: _c, responseBody: _d, chunks: _e, ...s }) => s,
      ),
    },
    exchanges,
  });
}

function requestBodyOf(entry: HarInputEntry): Body | null {
  const post = entry.request.postData;
  if (!post) return null;
  if (post.text !== undefined) {
    // Our export writes non-UTF-8 request bodies as base64 text marked `_encoding` (HAR has no field for it).
    return post._encoding === "base64"
      ? bodyFromBytes(Buffer.from(post.text, "base64"), post.mimeType)
      : utf8Body(post.text, post.mimeType);
  }
  const params = new URLSearchParams((post.params ?? []).map((p) => [p.name, p.value ?? ""]));
  return utf8Body(params.toString(), post.mimeType);
}

function responseBodyOf(entry: HarInputEntry): Body | null {
  const content = entry.response.content;
  if (!content) return null;
  if (content.text !== undefined) {
    return content.encoding === "base64"
      ? bodyFromBytes(Buffer.from(content.text, "base64"), content.mimeType)
      : utf8Body(content.text, content.mimeType);
  }
  // Dev tools leave `text` out of large or binary responses: the size is known, no byte was kept.
  const size = Math.max(0, content.size ?? 0);
  return size > 0
    ? {
        encoding: "utf8",
        data: "",
        size,
        storedSize: 0,
        truncated: true,
        ...(content.mimeType ? { contentType: content.mimeType } : {}),
      }
    : null;
}

function timingsOf(entry: HarInputEntry, start: number, answered: boolean): Exchange["timings"] {
  const t = entry.timings ?? {};
  const part = (n: number | undefined) => (n !== undefined && n > 0 ? n : 0);
  const requestEnd = start + part(t.blocked) + part(t.dns) + part(t.connect) + part(t.send);
  const firstByte = requestEnd + part(t.wait);
  const end = Math.max(firstByte + part(t.receive), start + part(entry.time));
  return { start, requestEnd, firstByte: answered ? firstByte : null, end };
}

function foreignExchange(entry: HarInputEntry, id: number, traceId: string): Exchange {
  const url = new URL(entry.request.url);
  const requestHeaders = headerList(entry.request.headers);
  const responseHeaders = headerList(entry.response.headers);
  const tap = guessTap(url.pathname, requestHeaders);
  const status = entry.response.status > 0 ? entry.response.status : null;
  const requestBody = requestBodyOf(entry);
  const responseBody = responseBodyOf(entry);
  const path = url.pathname + url.search;
  return {
    id,
    traceId,
    seq: id,
    tap,
    method: entry.request.method,
    url: path,
    upstream: url.origin,
    status,
    state: status === null ? "error" : "complete",
    error: status === null ? entry.response._error || "no response recorded in the HAR file" : null,
    timings: timingsOf(entry, Date.parse(entry.startedDateTime), status !== null),
    requestSize: requestBody?.size ?? 0,
    responseSize: responseBody?.size ?? 0,
    chunkCount: 0,
    classification: classifyExchange({
      tap,
      method: entry.request.method,
      url: path,
      status,
      requestText: utf8BodyText(requestBody),
      responseText: responseBody?.truncated ? null : utf8BodyText(responseBody),
      responseHeaders,
    }),
    requestHeaders,
    requestBody,
    responseHeaders,
    responseBody,
    chunks: [],
  };
}

function isError(ex: Exchange): boolean {
  const c = ex.classification;
  if (isNoStreamAnswer(ex)) return false;
  return (
    ex.state === "error" ||
    ex.state === "aborted" ||
    (ex.status ?? 0) >= 400 ||
    (c.kind === "mcp" && (c.outcome === "tool-error" || c.outcome === "protocol-error"))
  );
}

/** Rebuilds a trace from a HAR written by anything else: one trace of all entries, in start order. */
function rebuildForeign(har: HarInput, text: string): TraceBundle {
  const entries = [...har.log.entries].sort((a, b) => Date.parse(a.startedDateTime) - Date.parse(b.startedDateTime));
  const traceparent = entries
    .map((e) => parseTraceparent(e.request.headers.find((h) => h.name.toLowerCase() === "traceparent")?.value))
    .find((tp) => tp !== null);
  // Without a traceparent the id is derived from the file, so importing the same file twice gives the same id.
  const traceId = traceparent?.traceId ?? createHash("sha256").update(text).digest("hex").slice(0, 32);
  const exchanges = entries.map((entry, i) => foreignExchange(entry, i + 1, traceId));
  const links = linkExchanges(
    exchanges.map((ex) => ({
      id: ex.id,
      seq: ex.seq,
      classification: ex.classification,
      ...(ex.classification.kind === "model.chat"
        ? { toolMessages: toolMessagesOfText(utf8BodyText(ex.requestBody)) }
        : {}),
    })),
  );
  const question = exchanges
    .map((e) => e.classification)
    .find((c): c is Extract<Classification, { kind: "agent" }> => c.kind === "agent" && Boolean(c.message))?.message;
  const models = exchanges.filter((e) => e.tap === "model" && e.status !== null);
  const start = exchanges[0]!.timings.start;
  return validated({
    format: "hopscope-trace",
    version: 1,
    exportedAt: new Date(start).toISOString(),
    generator: { name: har.log.creator?.name || "unknown", version: har.log.creator?.version ?? "" },
    trace: {
      id: traceId,
      name: question ?? har.log.pages?.[0]?.title ?? `Imported HAR (${exchanges.length} requests)`,
      source: "imported",
      createdAt: start,
      updatedAt: maxOf(exchanges.map((e) => e.timings.end ?? e.timings.start)),
      exchangeCount: exchanges.length,
      errorCount: exchanges.filter(isError).length,
      groupedBy: traceparent ? "traceparent" : "single",
      simulated:
        models.length === 0
          ? null
          : models.some((e) =>
              e.responseHeaders.some(([k, v]) => k.toLowerCase() === "x-hopscope-simulated" && v === "1"),
            ),
      savedAs: null,
      exchanges: exchanges.map(
        ({ requestHeaders: _a, responseHeaders: _b, requestBody: _c, responseBody: _d, chunks: _e, ...s }) => s,
      ),
      links,
    },
    exchanges,
  });
}

function validated(bundle: unknown): TraceBundle {
  try {
    return parseTraceBundle(bundle);
  } catch (err) {
    throw new TraceImportError("har", `the HAR file does not describe a consistent trace:\n${formatBundleError(err)}`, {
      cause: err,
    });
  }
}

/**
 * Reads a HAR file: our own (restored exactly from `_hopscope`) or anyone else's (rebuilt). A file whose
 * page has `_hopscope` but where some entries lack it (entries added by hand or by another tool) is
 * rebuilt as a whole, so no entry is lost or restored half-way.
 */
export function harToBundle(text: string): TraceBundle {
  const har = parseHar(text);
  const pageExt = har.log.pages?.[0]?._hopscope;
  const own = pageExt !== undefined && har.log.entries.every((e) => e._hopscope !== undefined);
  const bundle = own ? restoreOwn(har, pageExt) : rebuildForeign(har, text);
  // The notes file's changes (`log._notesChanges`, validated with the log): kept as a hopscope file keeps them.
  const notes = har.log._notesChanges;
  return notes?.length ? { ...bundle, notes } : bundle;
}
