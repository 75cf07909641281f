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
import { TraceBundleSchema, type TraceBundle } from "@hopscope/shared/trace/bundle";
import type { Exchange } from "@hopscope/shared/trace/schemas";
import { SHARED_TRACE_FORMAT, SHARED_TRACE_PLACEHOLDERS, scriptSafeJson } from "@hopscope/shared/trace/share";
import { ExchangeViewsSchema } from "@hopscope/shared/trace/views";
import { escapeHtml } from "../static";
import { viewsJsonPieces, type ViewsAnswer } from "../views/views-json";
import { breather } from "../json-pieces";
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
  /** The recorder's derived views of one exchange, full tokens as JSON beside them (ExchangeViewBuilder.build). */
  views(exchange: Exchange): Promise<ViewsAnswer>;
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

/** The bundle's script-safe JSON in pieces, one per exchange, with breaks between them. */
async function bundlePieces(bundle: TraceBundle, breathe: () => Promise<void>): Promise<string[]> {
  const { exchanges, ...rest } = bundle;
  const head = scriptSafeJson(rest);
  const pieces = [`${head.slice(0, -1)},"exchanges":[`];
  for (const [i, x] of exchanges.entries()) {
    pieces.push(`${i > 0 ? "," : ""}${scriptSafeJson(x)}`);
    await breathe();
  }
  pieces.push("]}");
  return pieces;
}

/**
 * The views of every model chat, each checked against the page's schema and as script-safe JSON. The token ids
 * and offsets are checked as counts: their JSON is the tokenizer thread's own (PromptTokens), spliced in unparsed.
 */
async function viewPieces(bundle: TraceBundle, deps: Pick<HtmlExportDeps, "views">, breathe: () => Promise<void>) {
  const pieces: string[] = [];
  for (const x of bundle.exchanges) {
    if (x.classification.kind !== "model.chat") continue;
    const answer = await deps.views(x);
    const views = ExchangeViewsSchema.parse(answer.views);
    pieces.push(`${pieces.length > 0 ? "," : ""}${JSON.stringify(String(x.id))}:`);
    for (const piece of viewsJsonPieces({ views, tokens: answer.tokens }, scriptSafeJson)) {
      pieces.push(piece);
      await breathe();
    }
  }
  return pieces;
}

const lengthOf = (pieces: readonly string[]) => pieces.reduce((n, p) => n + p.length, 0);

/**
 * The document the page embeds (shared/trace/share SharedTraceSchema), as script-safe JSON made in pieces: the
 * bundle (redacted and checked) and, for every model chat, its derived views. Refused before the (slow) views
 * are derived when the bundle alone, with each model chat's request text (its rendered prompt is at least as
 * long), is over what a page can carry.
 */
async function sharedTraceJson(stored: TraceBundle, deps: Pick<HtmlExportDeps, "views">): Promise<string> {
  const breathe = breather();
  const bundle = TraceBundleSchema.parse(redacted(stored));
  const pieces = await bundlePieces(bundle, breathe);
  let rough = lengthOf(pieces);
  for (const x of bundle.exchanges)
    if (x.classification.kind === "model.chat" && x.requestBody?.encoding === "utf8")
      rough += x.requestBody.data.length;
  if (rough > MAX_HTML_TRACE_BYTES) tooLarge(rough);
  pieces.unshift(`{"format":${JSON.stringify(SHARED_TRACE_FORMAT)},"bundle":`);
  pieces.push(`,"views":{`, ...(await viewPieces(bundle, deps, breathe)), "}}");
  const length = lengthOf(pieces);
  if (length > MAX_HTML_TRACE_BYTES) tooLarge(length);
  return pieces.join("");
}

export async function exportHtml(bundle: TraceBundle, deps: HtmlExportDeps): Promise<ExportedFile> {
  const page = await template(deps.webDist);
  const data = await sharedTraceJson(bundle, deps);
  // Split once and join: no String.replace (a `$&` in a recorded body must stay as it is), and a trace
  // name that happens to contain a placeholder is not filled in again.
  const [before = "", after = ""] = page.split(SHARED_TRACE_PLACEHOLDERS.trace);
  const title = (text: string) =>
    text.split(SHARED_TRACE_PLACEHOLDERS.title).join(`${escapeHtml(bundle.trace.name)} · hopscope`);
  const body = `${title(before)}${data}${title(after)}`;
  return { body, contentType: "text/html; charset=utf-8", fileName: `${traceSlug(bundle)}.html` };
}
