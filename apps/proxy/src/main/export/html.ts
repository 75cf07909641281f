/**
 * `GET /api/traces/:id/export?format=html`: the trace as ONE self-contained HTML page that opens from
 * `file://` or any static host with no hopscope running. The page is the timeline's second build
 * (apps/web/dist/share.html: script and styles inline, a Content-Security-Policy allowing only them and
 * no network); this fills in the trace as JSON *data* (script-safe, so a recorded `</script>` or `<!--`
 * stays text) with the views the recorder derives (prompt, segments, token ids and budget, raw output,
 * diff, and the token counts its budget asks for), so the page needs neither a server nor the tokenizer.
 * The bundle keeps its `notes` (the trace's notes-file changes): the page draws the file lane from them.
 * Bodies come from the store, already redacted on the way in (and redacted again here).
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import { HTTPException } from "hono/http-exception";
import type { TraceBundle } from "@hopscope/shared/trace/bundle";
import type { Exchange } from "@hopscope/shared/trace/schemas";
import {
  SHARED_TRACE_FORMAT,
  SHARED_TRACE_PLACEHOLDERS,
  SharedTraceSchema,
  scriptSafeJson,
  type SharedTrace,
} from "@hopscope/shared/trace/share";
import type { ExchangeViews } from "@hopscope/shared/trace/views";
import { escapeHtml } from "../static";
import { redactedExchange, redactedSummary } from "./redacted-exchange";
import { traceSlug, type ExportedFile } from "./trace-file";

/**
 * Largest trace the page will carry. A browser parses a page this size in seconds; far above it, a
 * reader gets a tab that hangs, which is worse than a clear refusal here.
 */
export const MAX_HTML_TRACE_BYTES = 20 * 1024 * 1024;

export interface HtmlExportDeps {
  /** The built timeline (WEB_DIST); the template is share.html in it. */
  webDist: string;
  /** The recorder's derived views of one exchange (ExchangeViewBuilder.build). */
  views(exchange: Exchange): Promise<ExchangeViews>;
}

function megabytes(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

function tooLarge(bytes: number): never {
  throw new HTTPException(413, {
    message:
      `this trace is ${megabytes(bytes)} of data, over the ${megabytes(MAX_HTML_TRACE_BYTES)} an HTML page can carry and still open well in a browser; ` +
      "export it as a hopscope file instead (format=hopscope) and open it with hopscope, or share a shorter trace",
  });
}

async function template(webDist: string): Promise<string> {
  const file = path.join(webDist, "share.html");
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
    throw new HTTPException(503, {
      message: `the shared-page template ${file} is not built; build it with \`npm run build -w apps/web\``,
    });
  }
  for (const p of Object.values(SHARED_TRACE_PLACEHOLDERS)) {
    if (text.split(p).length !== 2)
      throw new Error(`${file} must contain ${p} exactly once; rebuild it with \`npm run build -w apps/web\``);
  }
  return text;
}

/** A page is shared further than any other export: headers and URLs are redacted once more. */
function redacted(bundle: TraceBundle): TraceBundle {
  const trace = { ...bundle.trace, exchanges: bundle.trace.exchanges.map(redactedSummary) };
  return { ...bundle, trace, exchanges: bundle.exchanges.map(redactedExchange) };
}

/** The document the page embeds: the bundle (redacted) and, for every model chat, its derived views. */
export async function sharedTrace(stored: TraceBundle, deps: Pick<HtmlExportDeps, "views">): Promise<SharedTrace> {
  const bundle = redacted(stored);
  const views: Record<string, ExchangeViews> = {};
  for (const x of bundle.exchanges) {
    if (x.classification.kind !== "model.chat") continue;
    const v = await deps.views(x);
    views[String(x.id)] = v;
  }
  return SharedTraceSchema.parse({ format: SHARED_TRACE_FORMAT, bundle, views });
}

export async function exportHtml(bundle: TraceBundle, deps: HtmlExportDeps): Promise<ExportedFile> {
  // Refuse before the (slow) views of a huge trace are derived; the bodies are most of its size, and each
  // model chat's view carries its rendered prompt, at least as long as the text its request holds.
  let rough = JSON.stringify(bundle).length;
  for (const x of bundle.exchanges)
    if (x.classification.kind === "model.chat" && x.requestBody?.encoding === "utf8")
      rough += x.requestBody.data.length;
  if (rough > MAX_HTML_TRACE_BYTES) tooLarge(rough);
  const page = await template(deps.webDist);
  const data = scriptSafeJson(await sharedTrace(bundle, deps));
  if (data.length > MAX_HTML_TRACE_BYTES) tooLarge(data.length);
  // Split once and join: no String.replace (a `$&` in a recorded body must stay as it is), and a trace
  // name that happens to contain a placeholder is not filled in again.
  const [before = "", after = ""] = page.split(SHARED_TRACE_PLACEHOLDERS.trace);
  const title = (text: string) =>
    text.split(SHARED_TRACE_PLACEHOLDERS.title).join(`${escapeHtml(bundle.trace.name)} · hopscope`);
  const body = `${title(before)}${data}${title(after)}`;
  return { body, contentType: "text/html; charset=utf-8", fileName: `${traceSlug(bundle)}.html` };
}
