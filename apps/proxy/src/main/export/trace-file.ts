/**
 * The two entry points the trace API uses: `exportTrace` for `GET /api/traces/:id/export?format=…` and
 * `importTraceFile` for `POST /api/import` (hopscope trace file or HAR, told apart by content).
 */
import { JsonLimitError, parseJson } from "@hopscope/shared/json/parse";
import { z } from "zod";
import type { TraceBundle } from "@hopscope/shared/trace/bundle";
import { redactBundle } from "@hopscope/shared/trace/redact";
import { exportHar, importHar } from "./har";
import { exportHopscope, importHopscope } from "./hopscope";
import { TraceImportError, tooDeep } from "./import-error";
import { exportMermaid } from "./mermaid";
import { exportOtlp } from "./otlp";

export const ExportFormatSchema = z.enum(["hopscope", "har", "otlp", "mermaid"]);
export type ExportFormat = z.infer<typeof ExportFormatSchema>;

export interface ExportedFile {
  body: string;
  contentType: string;
  /** Suggested download name, e.g. `add-buy-milk-to-my-notes.hopscope.json`. */
  fileName: string;
}

const FORMATS: Record<ExportFormat, { write: (b: TraceBundle) => string; contentType: string; extension: string }> = {
  hopscope: { write: exportHopscope, contentType: "application/json; charset=utf-8", extension: ".hopscope.json" },
  har: { write: exportHar, contentType: "application/json; charset=utf-8", extension: ".har" },
  otlp: { write: exportOtlp, contentType: "application/json; charset=utf-8", extension: ".otlp.json" },
  mermaid: { write: exportMermaid, contentType: "text/plain; charset=utf-8", extension: ".mmd" },
};

/** A file-name-safe slug of the trace name (the id when the name has no usable characters). */
export function traceSlug(bundle: Pick<TraceBundle, "trace">): string {
  const slug = bundle.trace.name
    .normalize("NFKD")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 60)
    .replace(/-+$/, "");
  return slug || bundle.trace.id;
}

export function exportTrace(bundle: TraceBundle, format: ExportFormat): ExportedFile {
  const f = FORMATS[format];
  // Live traffic is redacted before storage; this also cleans traces stored by a build with fewer rules.
  return {
    body: f.write(redactBundle(bundle)),
    contentType: f.contentType,
    fileName: `${traceSlug(bundle)}${f.extension}`,
  };
}

/**
 * Most exchanges one import may hold. A browser's HAR of a long session holds a few thousand requests and an
 * agent's trace hundreds; every exchange is validated, converted and stored in one transaction, so a larger
 * file is refused before that work starts rather than holding the recorder for seconds.
 */
export const MAX_IMPORT_EXCHANGES = 10_000;

/** How many exchanges a parsed trace file holds (before it is validated), or 0 when it names none. */
function exchangeCount(json: object): number {
  const list =
    "log" in json && typeof json.log === "object" && json.log !== null && "entries" in json.log
      ? json.log.entries
      : "exchanges" in json
        ? json.exchanges
        : null;
  return Array.isArray(list) ? list.length : 0;
}

/**
 * Reads an uploaded trace file of either importable format. Throws `TraceImportError` (answer 400 with
 * its message) when the file is neither, or is broken; nothing is stored by this function.
 */
export function importTraceFile(text: string): { format: "hopscope" | "har"; bundle: TraceBundle } {
  let json: unknown;
  try {
    json = parseJson(text);
  } catch (err) {
    if (err instanceof JsonLimitError) throw tooDeep("unknown", err);
    throw new TraceImportError(
      "unknown",
      `not a trace file: expected a hopscope trace file (.hopscope.json) or a HAR file (.har), but the file is not valid JSON (${(err as Error).message})`,
      { cause: err },
    );
  }
  if (typeof json === "object" && json !== null && !Array.isArray(json)) {
    const count = exchangeCount(json);
    if (count > MAX_IMPORT_EXCHANGES) {
      throw new TraceImportError(
        "format" in json ? "hopscope" : "har",
        `too many requests: the file holds ${count.toLocaleString("en-US")}, and one import takes at most ${MAX_IMPORT_EXCHANGES.toLocaleString("en-US")}; split the file (a HAR's log.entries, a hopscope file's exchanges) and import the parts, nothing was stored`,
      );
    }
    if ("format" in json) return { format: "hopscope", bundle: importHopscope(text) };
    if ("log" in json) return { format: "har", bundle: importHar(text) };
  }
  throw new TraceImportError(
    "unknown",
    'not a trace file: expected a hopscope trace file (a JSON object with "format": "hopscope-trace") or a HAR file (a JSON object with "log")',
  );
}
